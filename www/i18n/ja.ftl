# askdb's sentences in Japanese (日本語). Every message of en.ftl has its Japanese here, with
# the same variables (docs/translating.md). Fluent syntax: https://projectfluent.org
# Sections follow the page's parts; keep a message in the section of the code that says it.

## The language itself

# This language's name in its own words (the language menu).
language-name = 日本語
language-label = 言語
language-load-failed = { $language }の表示テキストを読み込めませんでした（{ $why }）。英語で表示しています。
address-lang-unknown = lang「{ $asked }」は { $languages } のいずれでもありません

## The page's frame (ui/mod.rs, ui/embed.rs)
# (the header, the tagline, the embed's frame)

page-tagline = SQLite データベースに質問できます。ファイルはこのブラウザーの外に出ません。

## Opening a database (ui/database_panel, intake, opening, open_steps, importing, recent, address_field, datasette_form, connection, lazy; present/kept, remote, readiness; import report; identify)
# (every status, progress line and error of an open)

## The question and the answer (ui/chat/*, markdown_view, tokens; present/transcript; llm and conversation errors)
# (asking, the transcript, replay, candidates, kept conversations)

## Settings and the model (ui/settings, demo_endpoint, number_input, golden_run, embed; present/demo_endpoint; settings/*)
# (the model, keys, limits, the demo's endpoint, checking the model)

## The data described (ui/schema_view, hiding, knowledge; present/hiding; knowledge's errors)
# (the schema, hidden columns, notes about the data)
# The schema panel (ui/schema_view.rs)
schema-heading = スキーマ
schema-no-tables = このデータベースにはテーブルがありません。
schema-badge-view = ビュー
schema-query-table = このテーブルを照会
schema-primary-key = 主キー
schema-primary-key-title = 主キー（プライマリーキー）
schema-foreign-key-title = 外部キー
schema-not-null = NULL 不可
schema-counted-now = たった今数えました
schema-count-failed = 数えられませんでした
schema-count-failed-title = 行数を数えられませんでした：{ $why }
schema-counting = 数えています…
schema-count-rows = 行数を数える
schema-counting-button = 数えています…
schema-count-rows-title = このテーブルのすべての行を数えます（count(*)）。大きなテーブルでは全体を読み込みます
schema-rows-estimated = { $rows }（推定）
schema-rows-estimated-title = SQLite の統計情報（ANALYZE が書き込む sqlite_stat1）による推定値で、古い可能性があります。「行数を数える」で正確に数えられます。
schema-rows-stopped-title = 開くのが遅くならないよう、ここで数えるのを止めました。「行数を数える」ですべて数えられます。
schema-rows-not-counted = 行数は未計測
schema-rows-not-counted-title = データベースを開いたときには数えていません。「行数を数える」で数えられます。

# Hiding tables and columns from the model (ui/schema_view.rs, ui/hiding, present/hiding.rs)
hide-table-title = { $kind ->
    [view] モデルのクエリーはこのビューを除いたコピーで実行されます。コンソールからは引き続き見えます
   *[other] モデルのクエリーはこのテーブルを除いたコピーで実行されます。コンソールからは引き続き見えます
}
hide-table-show = モデルに見せる
hide-table-hide = モデルから隠す
hide-badge = 非表示
hide-badge-title = モデルから隠しています
hide-left-out = モデル対象外
hide-left-out-title = モデルからは見えません。モデルから隠したもの、または askdb のメモを読み込んでいるためです
hide-column-show = 見せる
hide-column-hide = 隠す
hide-column-show-label = { $column } をモデルに見せる
hide-column-hide-label = { $column } をモデルから隠す
hide-preparing-status = モデルに見せる範囲を準備しています
hide-not-kept = この選択はタブを閉じるまで有効です：{ $why }。
hide-not-saved = このブラウザーでは保存が許可されていません（プライベートモード、またはストレージが無効）。この選択はタブを閉じるまで有効です。
hide-unresolved-label = 隠せなかったもの（アドレスで指定）：
hide-reason-separator = ／
hide-unresolved-not-found = { $name }：このデータベースにはそのテーブルも列もありません
hide-unresolved-view-column = { $name }：ビューの列だけを隠すことはできません。ビュー全体か、そのビューが表示しているテーブルの列を隠してください
hide-line-label = モデルから隠しているもの：
hide-line-title = モデルのクエリーは、これらを除いたデータベースのコピーで実行されます。コンソールからはすべて見えます。変更すると新しい会話が始まります。
hide-line-preparing = （モデルが見るコピーを作成しています…）
hide-line-failed = （コピーを作成できませんでした：{ $why }）
hide-line-refused = （モデルに質問できません：{ $why }）
hide-no-copy-on-demand = このファイルは必要な部分だけを読み込む方式で開いていて（{ $mib } MiB 以上のファイルはこの方式です）、メモリーにコピーしていません。隠す機能は、隠したものを除いたコピーで動きます
hide-no-copy-from-server = このデータベースはサーバーから必要な部分だけを読み込んでいて、メモリーにコピーしていません。隠す機能は、隠したものを除いたコピーで動きます
hide-no-copy-on-server = モデルのクエリーは Datasette サーバー上のデータベース全体で実行されます。このページはサーバーからテーブルや列を取り除けません。それらを除いたコピー（sqlite-utils や sqlite3 シェルでファイルのコピーから削除したもの）を公開して、そちらを開いてください
hide-refusal = { $why }。{ $hidden } をモデルから隠す必要があります

# Notes about the data (ui/knowledge, knowledge::sidecar)
notes-reading-status = メモを読み込んでいます
notes-not-kept = メモはタブを閉じるまで有効です。このデータベースをここでほかのデータベースと区別できないためです（{ $why }）。
notes-read-failed = このデータベース内のメモを読み込めませんでした（{ $why }）。データベースは開いています。
notes-file-not-utf8 = メモファイルが UTF-8 のテキストではありません
notes-not-saved = このブラウザーでは保存が許可されていません（プライベートモード、またはストレージが無効）。メモはタブを閉じるまで有効です。
notes-file-too-large = メモファイルのサイズは { $bytes } バイトです。メモファイルは最大 { $limit_mib } MiB（{ $limit_bytes } バイト）までです
notes-file-not-json = メモファイルが正しい JSON ではありません（{ $message }）。askdb からもう一度エクスポートするか、docs/knowledge-format.md の説明に従って修正してください
notes-file-cut-short = メモファイルが途中で切れています（JSON が途中で終わっています）。もう一度保存またはダウンロードしてください
notes-file-not-notes = この JSON ファイルは askdb のメモファイルではありません（"format": "{ $format }" がありません）
notes-file-wrong-version = このメモファイルの形式は「{ $found }」です。このページが読めるのは「{ $format }」です
notes-file-damaged = メモファイルが壊れています：{ $message }
notes-heading = ナレッジ
notes-reading = このデータベース内のメモを読み込んでいます…
notes-none = メモはまだありません。
notes-list-separator = 、
notes-count-notes = メモ { $count } 件
notes-count-terms = 用語 { $count } 件
notes-count-examples = 解答例 { $count } 件
notes-count-golden = 正解付きの質問 { $count } 件
notes-tables-label = このデータベースに保存されたナレッジ：
notes-table-rows = （{ $rows }）
notes-tables-not-data = （データとしてはモデルに見せません）
notes-file-label = メモファイル：
notes-problems = メモの問題 { $count } 件
notes-export = メモファイルをエクスポート
notes-export-title = ここに表示しているすべてを、?notes= や「メモファイルを開く」で読み込めるメモファイルとして保存します
notes-open = メモファイルを開く…
notes-edit-label = { $name } のメモを編集
notes-add-label = { $name } にメモを追加
notes-edit-column = メモを編集
notes-add-column = ＋ メモ
notes-edit-table = メモを編集
notes-add-table = メモを追加
notes-more = もっと見る
notes-less = 折りたたむ
notes-source-schema = スキーマのコメント
notes-source-database = データベース内
notes-source-sidecar = メモファイル
notes-source-person = あなたのメモ
notes-editor-label = { $name } のメモ
notes-editor-placeholder = 意味や使われ方（Ctrl+Enter で保存、Esc で取り消し）
notes-save = 保存
notes-save-title = 空のまま保存すると、あなたのメモがスキーマ、データベース、メモファイルのメモを隠します
notes-cancel = キャンセル
notes-delete = 自分のメモを削除
notes-delete-title = あなたのメモを削除します。スキーマ、データベース、メモファイルのメモが再び表示されます

# Problems with the notes (knowledge::validate, tables, sidecar, hiding; ui/knowledge/panel.rs)
notes-problem-line = { $subject }（{ $source }）：{ $message }
notes-problem-notes = メモ
notes-problem-glossary = 用語
notes-problem-examples = 解答例
notes-problem-golden-questions = 正解付きの質問
notes-problem-capped = 残せるのは最大 { $limit } 件です。ほかの { $count } 件は削除しました
notes-problem-note-on-column = { $table }.{ $column } のメモ
notes-problem-note-on-table = { $table } のメモ
notes-problem-note-on-knowledge-table = askdb 自身のナレッジテーブルへのメモです。モデルはこのテーブルを見ないため、削除しました
notes-problem-no-table = このデータベースにはそのテーブルがありません。削除しました
notes-problem-no-table-near = このデータベースにはそのテーブルがありません（{ $near } のことですか？）。削除しました
notes-problem-no-column = { $table } にはその列がありません。削除しました
notes-problem-no-column-near = { $table } にはその列がありません（{ $near } のことですか？）。削除しました
notes-problem-cut = { $part ->
    [term] 用語を { $limit } 文字に切り詰めました
    [meaning] 意味を { $limit } 文字に切り詰めました
    [question] 質問を { $limit } 文字に切り詰めました
   *[other] { $limit } 文字に切り詰めました
}
notes-problem-controls = { $part ->
    [term] 用語に含まれていた制御文字を取り除きました
    [meaning] 意味に含まれていた制御文字を取り除きました
    [question] 質問に含まれていた制御文字を取り除きました
   *[other] 含まれていた制御文字を取り除きました
}
notes-problem-controls-cut = { $part ->
    [term] 用語に含まれていた制御文字を取り除き、{ $limit } 文字に切り詰めました
    [meaning] 意味に含まれていた制御文字を取り除き、{ $limit } 文字に切り詰めました
    [question] 質問に含まれていた制御文字を取り除き、{ $limit } 文字に切り詰めました
   *[other] 含まれていた制御文字を取り除き、{ $limit } 文字に切り詰めました
}
notes-problem-term = 用語「{ $term }」
notes-problem-term-empty = 用語か意味が空です。削除しました
notes-problem-example = 解答例「{ $question }」
notes-problem-golden = 正解付きの質問「{ $question }」
notes-problem-question-empty = 質問が空です。削除しました
notes-problem-also-capped = 別解が { $count } 件あります。最初の { $limit } 件を残しました
notes-problem-sql-too-long = SQL が { $bytes } バイトあります。最大 { $limit } バイトまでのため、削除しました
notes-problem-sql-refused = SQL が拒否されました（{ $refusal }）。削除しました
notes-problem-sql-reads-knowledge = SQL が askdb 自身のナレッジテーブル { $table } を読んでいます。モデルはこのテーブルを見ないため、削除しました
notes-problem-sql-reads-missing = SQL が読んでいる { $table } は、このデータベースにありません。削除しました
notes-problem-sql-reads-missing-near = SQL が読んでいる { $table } は、このデータベースにありません（{ $near } のことですか？）。削除しました
notes-problem-other-too-long = 別解 { $number } の SQL が { $bytes } バイトあります。最大 { $limit } バイトまでのため、この別解を削除しました
notes-problem-other-refused = 別解 { $number } の SQL が拒否されました（{ $refusal }）。この別解を削除しました
notes-problem-other-reads-knowledge = 別解 { $number } の SQL が askdb 自身のナレッジテーブル { $table } を読んでいます。モデルはこのテーブルを見ないため、この別解を削除しました
notes-problem-other-reads-missing = 別解 { $number } の SQL が読んでいる { $table } は、このデータベースにありません。この別解を削除しました
notes-problem-other-reads-missing-near = 別解 { $number } の SQL が読んでいる { $table } は、このデータベースにありません（{ $near } のことですか？）。この別解を削除しました
notes-problem-row = { $table } の { $number } 行目
notes-problem-table = テーブル { $table }
notes-problem-required-missing = 必須の値が NULL か空です。スキップしました
notes-problem-not-text = { $column } の値が { $kind } 型で、テキストではありません。スキップしました
notes-problem-also-not-list = also_accepted が「[」で始まっていますが、SQL テキストの JSON リストではありません。無視しました
notes-problem-table-unreadable = 読み込めませんでした（{ $error }）。スキップしました
notes-problem-missing-columns = 列 { $missing } がありません（必要な列：{ $required }）。スキップしました
notes-problem-rows-capped = { $rows } 行あります。最初の { $limit } 行を読み込みました
notes-problem-file-list = 「{ $list }」
notes-problem-entry-not-object = オブジェクトではありません。スキップしました
notes-problem-entry-missing = "{ $key }" がありません。スキップしました
notes-problem-entry-not-text = "{ $key }" がテキストではありません。スキップしました
notes-problem-entry-also-item = "also_accepted" にテキストでない項目があります。スキップしました
notes-problem-entry-also-list = "also_accepted" が SQL のリストではありません。スキップしました
notes-problem-entries-capped = 項目が { $total } 件あります。最初の { $limit } 件を読み込み、残りはスキップしました
notes-problem-names-hidden = モデルから隠している { $name } に触れているため、モデルに送りませんでした

## The data queried (ui/console, result_table, chart_view, ledger_view, table_scroll, value_index, follow, task; present/ledger, value_index, errors, chart, csv, time; count)
# (the console, results, charts, the ledger, a database's errors)
