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
open-recent-tables = { $count } 個のテーブル
open-recent-copy = コピーをこのブラウザーに保存済み
open-recent-handle = このコンピューター上のファイル（開く前にブラウザーが確認します）
open-recent-address = { $host } 上
open-recent-datasette = { $host } の Datasette サーバー上
open-recent-opened-now = たった今開きました
open-recent-opened-minutes = { $count } 分前に開きました
open-recent-opened-hours = { $count } 時間前に開きました
open-recent-opened-yesterday = 昨日開きました
open-recent-opened-days = { $count } 日前に開きました
open-ago-now = たった今
open-ago-minutes = { $count } 分前
open-ago-hours = { $count } 時間前
open-ago-yesterday = 昨日
open-ago-days = { $count } 日前
open-recent-changed-size = { $name } は前回ここで開いた後に変更されています（以前は { $was }、現在は { $now }）。現在の内容で開きます。以前このファイルに付けたメモや非表示の設定は当てはまらない可能性があります。
open-recent-changed-saved = { $name } は前回ここで開いた後に変更されています（同じサイズで保存し直されています）。現在の内容で開きます。以前このファイルに付けたメモや非表示の設定は当てはまらない可能性があります。
open-recent-storage = このサイトはここに { $usage } を保存しています（このブラウザーの上限は { $quota }）。
open-remote-offer-sized = 代わりに全体をダウンロード（{ $size }）して、このブラウザーのメモリー上で読むことができます。
open-remote-offer-unsized = 代わりに全体をダウンロードして、このブラウザーのメモリー上で読むことができます（サイズはまだ不明です。{ $limit } を超えるとダウンロードを中止します）。
open-remote-offer-too-large = { $size } あり、ここで全体をダウンロードするには大きすぎます（上限は { $limit }）。
open-remote-set-cors = サーバーは他のサイトからのファイルの読み込みを許可する必要があります。Access-Control-Allow-Origin（* またはこのページのオリジン）を送り、部分的に読むために Access-Control-Allow-Headers: Range と Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified も送ってください。
open-remote-set-ranges = nginx と Apache は通常の静的ファイルには Range リクエストで応じますが、その場で圧縮するファイル（.db ファイルでは gzip をオフにしてください。プロキシの背後の nginx では proxy_force_ranges on）や生成するファイルには応じません。S3、R2、CloudFront は応じます（バケットの CORS ルールで Range ヘッダーを許可し、CloudFront ではそれを転送する必要があります）。GitHub Pages と Netlify は、ファイルをそのまま配信する場合に応じます。Python の http.server は応じません。
open-remote-set-expose = サーバーは Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified を送る必要があります。nginx: add_header Access-Control-Expose-Headers "Content-Range, Content-Length, ETag, Last-Modified" always、Apache: Header set Access-Control-Expose-Headers "..."、S3 と R2: バケットの CORS ルールの ExposeHeaders（AllowedHeaders: Range も）、CloudFront: それらを公開するレスポンスヘッダーポリシー、Netlify: _headers ファイル。GitHub Pages ではヘッダーを設定できません。askdb をファイルと同じサイトから配信するか、ファイルを別のホストから配信してください。
open-remote-set-static = ファイルは通常の静的ファイルとして（生成せず、その場で圧縮せずに）、HTTP Range リクエストに完全に対応したホストから配信してください。Range リクエストへの応答はすべて 206 で、Content-Range: bytes START-END/LENGTH を含む必要があります。
open-remote-set-validator = 静的ホストはどのファイルにも ETag か Last-Modified を付けて送ります（nginx、Apache、S3、R2、CloudFront、GitHub Pages、Netlify は両方を送ります）。ファイルを配信するプロキシ、関数、スクリプトはこれらをそのまま渡す必要があり、別のサイトからは ETag を公開する必要があります（Access-Control-Expose-Headers: ETag。Last-Modified は不要です）。
open-ready-no-question = 先に質問を入力してください。
open-ready-no-database = 先にデータベースを開いてください（デモも試せます）。
open-ready-no-golden-questions = このデータベースにはゴールデン質問がありません。
open-ready-model-view-preparing = 非表示の項目を除いたデータベースのコピーをまだ作成中です。しばらくしてからもう一度質問してください。
open-ready-model-view-failed = モデルに質問できません。非表示の項目を除いたコピーを作成できませんでした（{ $why }）。非表示の項目を再び表示するか、データベースを開き直してください。
open-ready-model-view-refused = このデータベースではモデルに質問できません: { $why }。
open-ready-no-model = 先にモデルを選んでください。設定を開き、モデル名を入力してください。
open-ready-no-key = 先に API キーを入力してください。{ $provider } はキーがないと応答しません（設定の「API キー」）。
open-import-read-delimited = { $file } を区切り文字付きテキスト（{ $delimiter ->
        [comma] カンマ区切り
        [tab] タブ区切り
        [semicolon] セミコロン区切り
        [pipe] | 区切り
       *[other] 区切り文字あり
    }{ $encoding ->
        [utf8-bom] 、バイトオーダーマーク付き UTF-8
        [utf16le] 、UTF-16（リトルエンディアン）
        [utf16be] 、UTF-16（ビッグエンディアン）
       *[utf8] {""}
    }）として読み込みました。
open-import-read-json-array = { $file } を JSON 配列{ $encoding ->
        [utf8-bom] （バイトオーダーマーク付き UTF-8）
        [utf16le] （UTF-16、リトルエンディアン）
        [utf16be] （UTF-16、ビッグエンディアン）
       *[utf8] {""}
    }として読み込みました。
open-import-read-json-lines = { $file } を 1 行に 1 つの値を持つ JSON{ $encoding ->
        [utf8-bom] （バイトオーダーマーク付き UTF-8）
        [utf16le] （UTF-16、リトルエンディアン）
        [utf16be] （UTF-16、ビッグエンディアン）
       *[utf8] {""}
    }として読み込みました。
open-import-read-xlsx = { $file } を Excel ブックとして読み込みました（シート { $sheets } 枚）。
open-import-empty-sheets = 空のシートからはテーブルを作成していません: { $sheets }。
open-import-table-rows = テーブル { $table }: { $read } 行を読み込み、書き込みました。
open-import-table-rows-stopped = テーブル { $table }: { $read } 行を読み込み、{ $written } 行を書き込みました（インポートは最後まで行われずに停止しました）。
open-import-sheet-rows = テーブル { $table }（シート { $sheet }）: { $read } 行を読み込み、書き込みました。
open-import-sheet-rows-stopped = テーブル { $table }（シート { $sheet }）: { $read } 行を読み込み、{ $written } 行を書き込みました（インポートは最後まで行われずに停止しました）。
open-import-header-numbers-below = 1 行目は数値の上にあるテキストなので、見出し行として扱いました（「{ $column }」の列）。
open-import-header-distinct-text = 1 行目のセルがすべて異なるテキストなので、見出し行として扱いました。どの列もテキストのため、これは推測です。1 行目がデータの場合、その値が列名になっています。
open-import-header-only-row = 唯一の行を見出し行として扱いました。このテーブルには列がありますが、行はありません。
open-import-no-header-value = 1 行目は { $column } 列目にデータと読める「{ $value }」があるため、見出し行ではなくデータとして読み込みました。列名は { $names } です
open-import-no-header-repeated = 1 行目に「{ $value }」が 2 回現れるため、見出し行ではなくデータとして読み込みました。列名は { $names } です
open-import-no-header-blank = 1 行目が空のため、見出し行ではなくデータとして読み込みました。列名は { $names } です
open-import-columns = 列: { $columns }。
open-import-leading-zeros = { $column } は { $type } のままです。{ $example } のような値の先頭のゼロは、数値にすると失われるためです。
open-import-booleans = { $column } は { $booleans } を含むため、{ $stored } として保存しました。
open-import-places = { $list } { $kind ->
        [element] 番目の要素
        [row] 行目
       *[line] 行目
    }{ $listed ->
       *[other] {""}
    }{ $more ->
        [none] {""}
       *[other] ほか { $more } 件
    }
open-import-ragged = { $count } 行で、フィールドの数が 1 行目と異なりました（{ $places }）。短い行は NULL で埋め、見出しを超えるフィールドは追加の列に入れたため、失われたものはありません。
open-import-undecodable = { $count } { $kind ->
        [element] 個の要素
        [row] 行
       *[line] 行
    }に、このエンコーディングのテキストではないバイトがありました（{ $places }）。それぞれ � に置き換えました。
open-import-duplicate-keys = { $count } 個のオブジェクトで同じキーが 2 回ありました（{ $places }）。最後の値を使いました。
open-import-error-sqlite = { $file } は SQLite データベースです。インポートする他のファイルとは一緒にせず、単独でデータベースとして開いてください
open-import-error-unrecognised = { $file } はインポートできません: { $why }。askdb がインポートできるのは CSV、TSV、区切り文字付きの { $txt }、JSON（オブジェクトの配列、または 1 行に 1 つのオブジェクト）、.xlsx ファイルです
open-import-not-data-zip = { $zip } アーカイブです。このうちインポートできるのは Excel ブック（.xlsx）だけです
open-import-not-data-xls = 古い形式の Excel ブック（{ $xls }）です。.xlsx（Excel ブック）として保存し、そのファイルを開いてください
open-import-not-data-binary = テキストではなくバイナリデータです
open-import-not-data-json = JSON という名前ですが、[ でも { "{" } でも始まっていません
open-import-not-data-delimiter = 先頭の行を列に分ける区切り文字（カンマ、タブ、セミコロン、|）が見つかりません
open-import-error-empty = { $file } は空です。インポートするものがありません
open-import-error-too-many-columns = { $file } には { $columns } 列ありますが、SQLite のテーブルは最大 { $most } 列です。ファイルを列の少ない複数のファイルに分けるか、区切り文字が意図したものか確認してください
open-import-error-json = { $file } の { $line } 行目は有効な JSON ではありません: { $message }。JSON ファイルには、オブジェクトの配列か、1 行に 1 つのオブジェクトが必要です
open-import-error-workbook = { $file } を Excel ブックとして読み込めませんでした（{ $message }）。Excel で .xlsx として保存し直してください
open-import-error-read = { $file } を読み込めませんでした（{ $message }）。選んだ後に変更または移動された可能性があります。もう一度選んでください
open-import-error-changed = { $file } はインポート中に変更されました。保存が終わってからもう一度選んでください
open-import-error-write = 作成中のデータベースが書き込みを拒否しました（{ $message }）。タブのメモリーが不足している可能性があります
open-import-error-no-files = インポートするファイルが指定されていません
open-import-sqljs-not-loaded = sql.js を読み込めませんでした: { $why }
open-import-sqljs-not-started = sql.js を起動できませんでした: { $why }
open-import-not-an-address = { $address } はアドレスではありません
open-import-worker-not-started = インポート用のワーカーを起動できませんでした: { $why }
open-import-not-handed = インポート用のワーカーにファイルを渡せませんでした: { $why }
open-import-worker-unknown-answer = インポート用のワーカーから不明な応答がありました
open-import-worker-failed = インポート用のワーカーでエラーが起きました: { $why }
open-import-no-database = インポート用のワーカーからデータベースが届きませんでした
open-import-not-kept = 作成したデータベースを保持できませんでした: { $why }
open-import-label-others = { $first } ほか { $others } ファイル
open-import-progress = { $files } をインポートしています（{ $rows } 行を読み込み済み）
open-import-worker-stopped = インポート用のワーカーが停止しました
open-import-stopped = インポートを中止しました。何も開いていません
open-import-name = { $files }（インポート）
open-heading = データベース
open-demo = デモを開く
open-file = ファイルを開く…
open-hint = または、SQLite ファイル（再生する保存済みの会話や、メモファイルも可）をこのページのどこかにドロップしてください。CSV、TSV、JSON、Excel ファイルは、ファイルまたはシートごとに 1 つのテーブルを持つデータベースになります（複数をまとめて結合できます）。ファイルはこのブラウザー内で読み込まれ、アップロードされることはありません。Web アドレスからは、小さいファイルは全体をダウンロードし、大きいファイルはクエリに必要なページだけを部分的に読み込みます。
open-picker-failed = ブラウザーがファイル選択画面を表示できませんでした（{ $why }）。代わりにファイルをページにドロップしてください。
open-stop = 中止
open-progress = 進行状況
open-none = データベースは開いていません。
open-import-report = ファイルの読み込み結果
open-import-download = .db としてダウンロード（{ $file }）
open-server-help = サーバーで設定すること
open-download-whole-sized = 全体をダウンロード（{ $size }）
open-download-whole = 全体をダウンロード
open-drop = データベースファイルをドロップして開く
open-demo-name = { $file }（デモ）
open-reading = { $name } を読み込んでいます
open-downloading = { $name } をダウンロードしています
open-failed = { $name } を開けませんでした: { $why }。
open-failed-still-open = { $name } を開けませんでした: { $why }。{ $open } は開いたままです。
open-replay-failed = { $name } を再生できませんでした: { $why }。何も実行していません。
open-replay-failed-still-open = { $name } を再生できませんでした: { $why }。何も実行していません。{ $open } は開いたままです。
open-notes-failed = メモファイル { $name } を読み込めませんでした: { $why }。
open-notes-failed-still-open = メモファイル { $name } を読み込めませんでした: { $why }。{ $open } は開いたままです。
open-not-loaded = { $name } を開けませんでした。{ $why }
open-not-loaded-still-open = { $name } を開けませんでした。{ $why }{ $open } は開いたままです。
open-not-data-file = { $file } はデータファイル（CSV、TSV、JSON、Excel）ではありません。複数のファイルをまとめて開けるのは、すべてがデータファイルの場合だけです（1 ファイル 1 テーブルの 1 つのデータベースになります）。データベース、会話、メモファイルは単独で開いてください
open-not-an-address = 「{ $address }」はアドレスではありません
open-conversation-not-utf8 = 会話ファイルが UTF-8 テキストではありません
open-header-empty = ファイルが空です
open-header-too-short = ファイルは { $bytes } バイトしかありません。SQLite データベースは少なくとも { $least } バイトあります
open-header-text = SQLite のヘッダーで始まっていません。テキストファイル（CSV、SQL、JSON など）のようです
open-header-not-sqlite = SQLite のヘッダー（"{ $magic }"）で始まっていません
open-header-page-size = ヘッダーのページサイズ（{ $size }）が不正です
open-header-truncated = ファイルが途中で切れています。ヘッダーでは { $expected } バイトのはずですが、{ $bytes } バイトしかありません
open-header-part-page = ファイルが途中で切れています。{ $bytes } バイトは { $page_size } バイトのページの整数倍ではありません
open-datasette-no-scheme = http:// または https:// がありません
open-datasette-not-http = http と https のアドレスだけが使えます
open-datasette-no-host = ホストがありません
open-datasette-credentials = ユーザー名やパスワードが含まれています。トークンは別に入力してください
open-datasette-host-space = ホストに空白かバックスラッシュが含まれています
open-datasette-server-page = サーバー自身のページで、データベースではありません
open-datasette-no-database = ホストの後にデータベース名がありません
open-part-not-loaded = askdb の一部をダウンロードできませんでした（接続が切れているか、読み込んだ後にページが更新された可能性があります）。もう一度試すか、ページを再読み込みしてください。
part-try-again = もう一度試す
open-opening = { $name } を開いています
open-opening-on-demand = { $name } を開いています（オンデマンド読み込み: クエリに必要なページだけを読みます）
open-asking-host = { $host } に { $name } を問い合わせています
open-at-address = { $address }: { $why }
open-downloading-from = { $host } から { $name } をダウンロードしています
open-opening-remote = { $host } から { $name } をオンデマンドで開いています
open-refused = { $address }: { $problem }
open-refused-offer = { $address }: { $problem }。{ $offer }
open-asking-datasette = Datasette サーバーに { $name } を問い合わせています
open-reading-schema = スキーマを読み込んでいます
open-counting = { $name } のテーブルの行数を数えています
open-identifying = { $name } を識別しています（メモと非表示の設定のため）
open-no-identity = 識別情報がありません
open-schema-unread = 開きましたが、スキーマを読み込めませんでした（{ $why }）
open-download-unreachable = { $address } からのダウンロードに失敗しました（{ $why }）。サーバーに接続できなかったか、サーバーがクロスオリジンのリクエストを許可していません。別のサイトにあるデータベースをここで開けるのは、そのサーバーが { $header } ヘッダーを送る場合だけです
open-download-status = { $address } のサーバーが { $status } { $text } を返しました
open-download-stopped = ダウンロードが止まりました（{ $why }）
open-download-too-large = { $size } あり、このページが全体をダウンロードする上限の { $most } を超えています
open-download-changed = ダウンロード中にサーバー上のファイルが変更されました（{ $why }）。もう一度開いてください
open-file-unreadable = ブラウザーがファイルを読み込めませんでした（{ $why }）
open-recent-heading = 最近のデータベース
open-recent-forget = 削除
open-recent-forget-name = { $name } を一覧から削除
open-recent-forget-all = すべて削除
open-recent-kept = このブラウザーに保存済みです。「最近のデータベース」にあり、クリックで開き直せます。
open-recent-keep = このデータベースをこのブラウザーに保存
open-recent-keeping = コピーを保存しています…
open-recent-keep-hint = このページ用にコピーをこのブラウザーのストレージに残し、次回の訪問時に「最近のデータベース」から開き直せるようにします。アップロードされることはありません。
open-recent-list-not-saved = このブラウザーでは、最近のデータベースの一覧を保存できませんでした（プライベートウィンドウか、ストレージがオフになっています）。一覧はタブを閉じるまで保持されます。
open-recent-not-listed = { $name } は開き直せる一覧に追加できませんでした: { $why }。
open-recent-conversations-kept = このデータベースの会話を削除できませんでした: { $why }。
open-recent-all-conversations-kept = 保存した会話を削除できませんでした: { $why }。
open-recent-not-kept = 保存できませんでした: { $why }。
open-recent-not-whole = ここで全体を読み込んだ 512 MiB 以下のファイルではありません
open-recent-none-open = データベースが開いていません
open-recent-bytes-gone = そのデータがここにありません
open-recent-not-removed = 保存したコピーを削除できませんでした: { $why }。
open-store-not-available = このブラウザーはこのページのファイルを保存しません（プライベートウィンドウか、ストレージがオフになっています）。何も保存していません
open-store-full = このブラウザーのこのページ用ストレージがいっぱいです。保存したデータベースを削除するか、ディスクからファイルを開き直してください
open-store-missing = 保存したコピーがなくなっています（ブラウザーがこのサイトのストレージを消去した可能性があります）。ディスクからファイルを開き直してください
open-store-failed = ブラウザーが保存できませんでした（{ $why }）
open-idb-not-available = このブラウザーはこのページのデータを保存しません（プライベートウィンドウか、ストレージがオフになっています）
open-idb-full = このブラウザーのこのページ用ストレージがいっぱいです
open-recent-reopen-failed = { $name } を開き直せませんでした: { $why }。
open-recent-handle-gone = { $name } を開き直せませんでした。このブラウザーにはもうファイルへの参照がありません。ディスクからもう一度開いてください。
open-recent-not-allowed = { $name } を開き直せませんでした。ブラウザーが読み込みを許可しませんでした。もう一度開き、ブラウザーに聞かれたら読み込みを許可してください。
open-recent-file-moved = { $name } を開き直せませんでした。ファイルが元の場所にありません（{ $why }）。ディスクからもう一度開いてください。
open-address-label = または Web アドレスから開く
open-address-open = アドレスを開く
open-address-not-web = 「{ $address }」は Web アドレスではありません。Web サーバー上の SQLite ファイルのアドレスを、https://（または http://）から入力してください。
open-datasette-label = または Datasette サーバーに問い合わせる
open-datasette-open = 開く
open-datasette-form-problem = { $why }。
open-datasette-token = API トークン（非公開のサーバー用）
open-datasette-token-label = Datasette の API トークン
open-datasette-token-held = このサーバーのトークンを保持しています
open-datasette-remember = このデバイスに記憶する
open-datasette-token-hint = そのサーバーにだけ送られ、アドレス、トランスクリプト、記録には含まれません。記憶しない場合は、このタブのメモリーにだけ保持されます。
open-datasette-forget-tokens = 保存したトークンを削除

## The question and the answer (ui/chat/*, markdown_view, tokens; present/transcript; llm and conversation errors)
# (asking, the transcript, replay, candidates, kept conversations)
# Why a question got no answer (present/failure): clauses that start in lower case, as the
# chat puts them after "No answer:" or makes a sentence of them.
chat-failure-step-limit = { $steps } ステップを使っても回答が得られませんでした。質問を絞り込むか、設定でステップ数の上限を増やしてください
chat-failure-deadline = { $time } 以内に回答が得られませんでした。質問を簡単にするか、設定で制限時間を延ばしてください
chat-failure-cancelled = 停止しました：質問は取り消されました
chat-failure-llm = モデルが回答できませんでした：{ $why }
chat-failure-empty-reply = モデルの返答が空でした。もう一度質問するか、別のモデルを選んでください
chat-llm-unauthorized = API キーが拒否されました（HTTP { $status }）。設定でキーを確認し、そのキーでこのモデルを使えるかも確認してください
chat-llm-not-found = モデルまたは URL が見つかりません（HTTP 404）。モデル名とベース URL を確認してください
chat-llm-rate-limited = プロバイダーがリクエスト数を制限しています（HTTP 429）。askdb が自動で何度か再試行します。続くようなら 1 分ほど待つか、ご利用プランの上限を確認してください
chat-llm-rate-limited-wait = プロバイダーがリクエスト数を制限しており（HTTP 429）、{ $seconds } s 待つよう求めています。askdb が自動で何度か再試行します。続くようなら 1 分ほど待つか、ご利用プランの上限を確認してください
chat-llm-server = プロバイダーが混雑しているか、障害が発生しています（HTTP { $status }）。askdb が自動で何度か再試行します。続くようなら、しばらくしてからもう一度お試しください
chat-llm-bad-request = プロバイダーがリクエストを拒否しました（HTTP { $status }）
# After a clause, what the server said (its own words, untranslated).
chat-llm-server-said = 。サーバーの応答：{ $message }
chat-llm-network = { $address } に接続できませんでした（{ $message }）。オフラインになっている、URL が間違っている、サーバーが起動していない、またはサーバーがこのページを拒否した（{ $cors }）可能性があります
# $variable: OLLAMA_ORIGINS; $command: the command that starts Ollama with it; $cors: CORS.
chat-llm-network-ollama = 。Ollama は { $variable } を設定して起動した場合にだけウェブページに応答します。例：`{ $command }`（* の代わりにこのページのオリジンでも可）
chat-llm-network-local = 。LM Studio ではサーバー設定で { $cors } を有効にし、Ollama では { $variable } を設定してください
chat-llm-malformed = サーバーの応答が想定した形式ではありませんでした：{ $message }
chat-proxy-limit = デモのエンドポイントが上限のいずれかに達しました（HTTP { $status }、{ $reason }）
chat-proxy-unreachable = デモのエンドポイントがモデルに接続できませんでした（HTTP { $status }、{ $reason }）
chat-proxy-upstream-key = デモのエンドポイントがモデルを使えませんでした。プロバイダーがデモの作成者を拒否しています（HTTP { $status }、{ $reason }）。これを直せるのは作成者だけです
chat-proxy-refused = デモのエンドポイントがこの質問を拒否しました（HTTP { $status }、{ $reason }）
chat-proxy-said = ：{ $message }
chat-demo-unreachable = デモのエンドポイントに接続できませんでした（{ $message }）。オフラインになっているか、エンドポイントが停止しているか、このページに対応していない可能性があります
chat-demo-refused = デモのエンドポイントがこの質問を拒否しました（HTTP { $status }）
chat-demo-not-found = デモのエンドポイントはこのアドレスまたはモデルを認識していません（HTTP 404）
chat-demo-busy = デモのエンドポイントが混雑しています（HTTP 429）。askdb が自動で何度か再試行します。続くようなら 1 分ほどしてからもう一度お試しください
chat-demo-failing = デモのエンドポイントで障害が発生しています（HTTP { $status }）。askdb が自動で何度か再試行します。続くようなら、しばらくしてからもう一度お試しください
chat-demo-malformed = デモのエンドポイントの応答が想定した形式ではありませんでした：{ $message }
# The transcript of a question (present/transcript).
chat-knowledge-summary = 知識：メモ { $notes } 件、用語 { $terms } 件、例題 { $examples } 件 · { $size } / { $budget } KB
chat-knowledge-left-out = 収まらない { $count } 件を省略
chat-knowledge-term = 用語：{ $term }
chat-knowledge-example = 例題（{ $score }）：{ $question }
chat-schema-tables-and-values = スキーマ：この質問のために選んだテーブル { $tables } 個、質問に含まれる値 { $values } 個 · { $size } KB
chat-schema-tables = スキーマ：この質問のために選んだテーブル { $tables } 個 · { $size } KB
chat-schema-values = スキーマ：質問に含まれる値 { $values } 個 · { $size } KB
chat-schema-table = { $table }：{ $why }
chat-schema-value = 値：{ $value }
chat-schema-value-index = 値のインデックス：{ $coverage }
# Why a table was picked for a question.
chat-reason-name = 単語「{ $word }」
chat-reason-column = 列 { $column }（「{ $word }」）
chat-reason-note = メモ（「{ $word }」）
chat-reason-term = 用語集の用語「{ $term }」
chat-reason-example = この質問に似た例題
chat-reason-value = { $column } の値「{ $value }」
chat-reason-path = { $from } から { $to } への結合経路上
# What a question read from a database read on demand.
chat-reads-from-database = データベースから { $requests } 回の読み込みで { $size } を読み込み
chat-status-starting = 開始しています…
chat-status-running = { $tool } を実行しています…
chat-status-waiting = ステップ { $step }/{ $steps }：モデルの応答を待っています…
chat-status-retry-wait = { $wait } 待ってから再試行します（{ $attempt } 回目）…
chat-retry = { $wait } 後に再試行します（{ $attempt } 回目）。理由：{ $why }
chat-status-calling = ステップ { $step }：モデルが { $tool } を呼び出しています…
chat-status-writing = ステップ { $step }：モデルが応答を書いています…
chat-stopped = 停止しました。
chat-model-time = モデルの応答時間は { $time }、最初のトークンまでは { $first } でした。
# $label: Ollama's mark (tools); $program, $server, $flag: llama.cpp, llama-server, --jinja; $readme, $section: README and its section.
chat-tools-never-called = モデルは求められてもツールを一度も呼び出さずに回答したため、この回答を確かめたクエリはありません。どの質問でもそうなる場合、そのモデルまたはチャットテンプレートはツール呼び出しに対応していません。ツールに対応したモデルを選ぶ（Ollama では「{ $label }」と表示されます）、{ $program } の { $server } を { $flag } 付きで起動してチャットテンプレートがツールを示すようにする、または LM Studio でツール使用に対応したモデルを読み込んでください。{ $readme } の「{ $section }」を参照してください。
chat-nudge-no-final-answer = モデルが { $tool } を使わずに回答したため、根拠となる SQL を添えて回答するよう求めました。
# (The English says "The model empty reply" as the page always has.)
chat-nudge-empty-reply = モデルの返答が空だったため、根拠となる SQL を添えて回答するよう求めました。
chat-nudge-unreadable-call = モデルがテキストで書いたツール呼び出しを読み取れなかったため（{ $problem }）、根拠となる SQL を添えて回答するよう求めました。
# Between the items of a list.
chat-list-separator = 、
chat-calls-in-text = モデルがツールを呼び出す代わりに { $count } 件のツール呼び出しをテキストで書いたため（{ $forms }）、askdb が読み取って実行しました。
chat-calls-in-text-repaired = モデルがツールを呼び出す代わりに { $count } 件のツール呼び出しをテキストで書いたため（{ $forms }）、askdb が修正して（{ $repairs }）読み取り、実行しました。
# $tag, $token: how the model wrote its calls (<tool_call>, [TOOL_CALLS]), as it wrote them.
chat-form-tags = { $tag } タグ
chat-form-token = { $token } トークン
chat-form-bare-json = JSON オブジェクト
chat-repair-single-quotes = 一重引用符を二重引用符に変更
chat-repair-trailing-comma = 末尾のカンマを削除
chat-repair-arguments-as-string = 文字列で渡された引数をオブジェクトとして読み取り
chat-step-running = 実行中…
chat-step-tables = { $count } 個のテーブル
chat-step-columns = { $count } 個の列
chat-step-warnings = 警告 { $count } 件
chat-step-answer-with-sql = SQL 付きの回答
chat-step-answer-without-evidence = 根拠のない回答
chat-step-error = エラー
chat-unverified-no-query = この回答を裏付けるクエリはありません。頼る前に確認してください。
chat-unverified-unchecked = この SQL はエージェントによって確認されていません。頼る前に確認してください。
# A question's candidates (present/candidates, ui/chat/candidates).
chat-agreement-none = { $count } 件の候補のどれも結果を出しませんでした
chat-agreement-only-one = { $count } 件の候補のうち結果を出したのは 1 件だけ{ $without ->
        [0] { "" }
       *[other] （{ $without } 件は結果なし）
    }
chat-agreement-agree = { $count } 件中 { $agreeing } 件の候補が一致{ $without ->
        [0] { "" }
       *[other] （{ $without } 件は結果なし）
    }
chat-agreement-disagree = 候補の結果が分かれました：{ $with } 件の候補が { $distinct } 通りの結果を出しました{ $without ->
        [0] { "" }
       *[other] （{ $without } 件は結果なし）
    }
chat-candidate-no-answer = 回答なし：{ $why }
chat-candidate-no-sql = 確かめられる SQL なしで回答
chat-candidate-stopped = SQL を実行する前に停止
chat-candidate-sql-failed = SQL が失敗しました：{ $error }
chat-approach-as-asked = 質問どおり
chat-approach-in-parts = 部分に分けて
chat-approach-values-first = 値を先に確認
chat-approach-join-paths = 結合経路から
chat-approach-word-by-word = 一語ずつ
# A replayed conversation (present/replay).
chat-conversation-too-large = ファイルは { $bytes } バイトです。会話ファイルは最大 { $limit } バイトまでです
chat-conversation-not-json = このファイルは SQLite データベースでも、askdb で保存した会話でもありません（有効な JSON ではありません：{ $message }）
chat-conversation-cut-short = 会話ファイルが途中で切れています（JSON が途中で終わっています）。保存またはダウンロードをやり直してください
# $field: the field the file lacks or has otherwise ("format"), as JSON writes it.
chat-conversation-no-format = この JSON ファイルは askdb で保存した会話ではありません（{ $field } がありません）
chat-conversation-foreign-format = この JSON ファイルは askdb で保存した会話ではありません（{ $field } が "{ $format }" ではなく "{ $found }" です）
chat-conversation-wrong-version = この会話の形式は "{ $found }" です。このページが読めるのは "{ $format }" と "{ $candidates_format }" です
chat-conversation-damaged = 会話ファイルが壊れています：{ $message }
# $what: what is wrong, as the reader of files says it (English).
chat-conversation-invalid = 会話ファイルに問題があります：{ $what }
chat-replay-database-unidentified = 開いているデータベースを、会話を記録したデータベース（{ $name }）と比べられません。結果が記録と異なることがあります。異なるステップには印が付きます。
chat-replay-other-database = これは会話を記録したデータベースではありません。記録に使ったのは { $recorded }（{ $recorded_size } バイト、{ $recorded_identity }）で、開いているのは { $open }（{ $open_size } バイト、{ $open_identity }）です。結果が記録と異なることがあります。異なるステップには印が付きます。
chat-replay-database-cannot-tell = 一方は全体を読み込み、もう一方は必要な部分だけを読み込んでいるため、開いているデータベースを会話を記録したデータベースと比べられません。記録に使ったのは { $recorded }（{ $recorded_size } バイト、{ $recorded_identity }）で、開いているのは { $open }（{ $open_size } バイト、{ $open_identity }）です。結果が記録と異なることがあります。異なるステップには印が付きます。
chat-replay-difference = { $tool } の今回の結果が記録と異なります。
chat-replay-difference-not-recorded = 記録には、この { $tool } の呼び出しの結果がありません。
chat-replay-difference-not-made = この { $tool } の呼び出しは記録にありますが、今回は行われませんでした。
chat-replay-candidates-otherwise = 記録時の候補は「{ $before }」（{ $before_groups }）でしたが、今回は「{ $after }」（{ $after_groups }）です
chat-replay-groups = 候補 { $groups }
chat-replay-no-group = グループなし
# The chat (ui/chat).
chat-heading = データベースに質問
chat-earlier = この会話のこれまでの質問
chat-replayed-badge = 再生
chat-earlier-no-answer = 回答なし：{ $why }
chat-announce-answer = 回答：{ $answer }
chat-question-label = 質問
chat-question-placeholder = データについて、どの言語でも質問できます。例：2024 年に最も売れたカテゴリーは？
chat-ask = 質問する
chat-asking = 質問中…
chat-stop = 停止
chat-new-conversation = 新しい会話
chat-new-conversation-title = これまでの質問を忘れ、次の質問から新しく始めます
chat-save-conversation = 会話を保存
chat-save-conversation-title = 質問、モデルの応答、回答を、キーなしで再生できるファイルとしてダウンロードします
chat-keys-hint = Enter で質問、Shift+Enter で改行します。
# $cost: tokens, time and what was read, as a list.
chat-usage-question = この質問：{ $cost }
chat-usage-so-far = ここまで：{ $cost }
chat-usage-session = セッション：質問 { $questions } 件、{ $tokens }、{ $time }
chat-answer = 回答
chat-unverified-badge = 未検証
chat-answer-notes-label = 注記
chat-answer-notes = 注記と注意点
chat-answer-sql = 根拠の SQL
chat-answer-to-console = コンソールで開く
chat-answer-rerun = このページで再実行した結果：
chat-answer-bound-values = バインドした値（SQL には書き込みません）：
chat-answer-table = 回答の表
chat-transcript = エージェントが行ったこと
chat-note-model = モデル：
chat-note-unfinished = 停止前に書かれた内容：
chat-step-recorded = 記録の内容
chat-table-rows = { $rows }。
chat-table-columns = 列：
chat-cross-query = クエリ { $name }
chat-values = 値：
chat-first-rows = 結果の最初の行
chat-diagnostics = 警告と確認
chat-candidates-stopped-said = 停止しました。{ $summary }。
chat-candidates-agreed-said = { $summary }。回答：{ $answer }
chat-candidates-split-said = { $summary }。質問に答えている結果を選んでください。
chat-candidates-said = { $summary }。
chat-candidate-working = 作業中…
chat-candidate-gave-result = 結果あり
chat-candidate-heading = 候補 { $number }/{ $count }（{ $approach }）：
chat-candidates-steps = 各候補のステップ
chat-candidates-stopped = 停止しました。{ $summary }
chat-candidates-choose = 結果は自動では選ばれません。質問に答えている結果を選ぶか、質問を言い換えてください。
chat-candidates-chosen = 候補 { $number } の結果を選びました。下の回答がその結果で、続けて質問するときもこれをもとにします。
chat-candidate-without = 候補 { $number }：{ $why }
chat-candidates-verdict = 候補の一致状況
chat-candidates-recorded-otherwise = 記録と異なります：{ $why }。
chat-candidate-given = { $count } 件中 { $given } 件の候補がこの結果を出しました（候補 { $numbers }）
chat-candidate-chosen = 選択済み
chat-candidate-use = この回答を使う
# Replaying a saved conversation (ui/chat/replay).
chat-replay-speed-slow = ゆっくり
chat-replay-speed-normal = 標準
chat-replay-speed-fast = 速い
chat-replay-question-running = 質問を実行中です。停止してから、もう一度会話を開いてください。
chat-replay-open-unidentified = 開いているデータベースをここでは特定できなかった（SHA-256 を計算できなかった）ため、記録に使ったデータベースと比べられません。結果が異なることがあります。
chat-replay-pending = 保存された会話を再生する準備ができました。記録に使ったデータベース（{ $name }）を開いてください。
chat-replay-label = 再生
chat-replay-title = 記録された会話の再生
chat-replay-model = モデル
chat-replay-recorded = 記録日時
chat-replay-how = モデルの応答はファイルから読み込み、モデルは呼び出しません。クエリはすべて、開いているデータベースで実際に実行します。
chat-replay-differences = { $count } 件のツールの結果が記録と異なります。該当するステップに印を付けています。
chat-replay-watch = 記録された会話を見る
chat-replay-speed = 速度
chat-replay-all = すべて一度に表示
chat-replay-playing = { $questions } 件の質問を再生しています…
chat-replay-stopped = 再生を停止しました。
chat-replay-finished-live = 再生が終わりました（質問 { $questions } 件）。下の欄から自分の質問をしてみてください。
chat-replay-finished = 再生が終わりました（質問 { $questions } 件）。続けて質問するには、設定でご自分のモデルを選んでください。
# Conversations kept in this browser (ui/chat/kept).
chat-kept-heading = このデータベースに保存された会話（{ $count }）
chat-kept-line = 質問 { $questions } 件 · { $ago }
chat-kept-forget = 削除
chat-kept-forget-label = 会話「{ $title }」を削除
chat-kept-not-kept = この会話はこのブラウザーに保存されていません：{ $why }。残しておくにはファイルとして保存してください。
chat-kept-unreadable = 保存された会話「{ $title }」を開けません：{ $why }。
chat-kept-not-forgotten = 会話を削除できませんでした：{ $why }。
# Saving a conversation (ui/chat/save).
chat-save-not-replayable = この会話は、再生できるファイルとして保存できません：{ $why }。
chat-save-browser-refused = ブラウザーがファイルを保存しませんでした（{ $why }）。
chat-save-nothing = まだ保存するものがありません。先に質問してください。
chat-save-unidentified = ここではデータベースを特定できなかった（SHA-256 を計算できなかった）ため、保存する会話にデータベースを記録できません。
# How the page is set up, beside the question box (ui/chat/setup_line).
chat-setup-label = このページの設定
chat-setup-live-demo = ライブデモ
chat-setup-reading = ここで回答するモデルをデモのエンドポイントに問い合わせています…
chat-setup-said = ：{ $said }
chat-setup-safe-mode = セーフモード
chat-setup-safe-title = モデルには、テーブル・フィールド・条件を指定するクエリツールが渡されます。SQL はページが書き、値はバインドされます。
chat-setup-safe = ：ここでの質問は SQL を書かないモデルに送られ、モデルは構造化クエリで問い合わせます。
chat-setup-safe-by-address = （このページのアドレスで設定）：ここでの質問は SQL を書かないモデルに送られ、モデルは構造化クエリで問い合わせます。
chat-setup-replay-label = 再生
chat-setup-replay = ：下の回答は記録から再生しています。モデルには問い合わせず、クエリはすべてここで実際に実行します。
chat-setup-replay-safe = セーフモードで記録されました。
chat-setup-replay-sql = モデルが SQL を書く設定で記録されました。
# An image in the model's answer, never fetched: its words in its place (present/markdown).
chat-markdown-image = [画像]
chat-markdown-image-alt = [画像：{ $alt }]

## Settings and the model (ui/settings, demo_endpoint, number_input, golden_run, embed; present/demo_endpoint; settings/*)
# (the model, keys, limits, the demo's endpoint, checking the model)
# The settings panel (ui/settings.rs)
settings-button = 設定
settings-panel-label = モデルの設定
settings-model = モデル
settings-address-ignored = ページのアドレスで指定されたもののうち、使わなかったもの：
settings-query-deadline = 各クエリは最長 { $deadline } 実行できます（SQL コンソールの「制限時間」）。
settings-storage-refused = このブラウザーでは保存が許可されていません（プライベートモード、またはストレージが無効）。設定はタブを閉じるまで有効です。
settings-saved-where = キー以外の設定はこのブラウザーに保存されます。質問、スキーマ、クエリ結果は上のモデルのアドレスにだけ送られ、ほかには送られません。
settings-demo-endpoint-note = このデモの質問は、デモ専用のエンドポイントに送られます（あなたのキーは使いません）。ここでプロバイダー、モデル、キーのいずれかを選ぶと、この訪問のあいだは代わりにあなたのモデルが答えます。
settings-base-url-kept = { $why }。引き続き { $url } を使います
settings-provider = プロバイダー
settings-provider-openai = OpenAI または互換サーバー
settings-caching-by-itself = { $provider } は、繰り返されるプロンプトの先頭を（対応している場合）自動でキャッシュします。askdb は各ステップの先頭を変えずに送ります。
settings-caching-marked = askdb は { $provider } のプロンプトキャッシュ用に、ツール、システムプロンプト、会話に印を付けます。各ステップはそれらを割引価格で読み直します。
settings-presets-label = OpenAI 互換サーバーのプリセット
settings-presets-lead = OpenAI 互換：
settings-preset-title = { $url } の OpenAI 形式
settings-base-url = ベース URL
settings-model-placeholder = 例：{ $example }
settings-model-placeholder-listed = 例：{ $server } に表示されるモデル ID
settings-api-key = API キー
settings-api-key-placeholder = Ollama と LM Studio では不要
settings-key-kept-in-browser = このブラウザーのストレージに保存され、{ $endpoint } にだけ送られます。
settings-key-kept-in-tab = このタブのメモリーにだけ保持され、{ $endpoint } にだけ送られます。
settings-key-per-address = アドレスごとに別のキーを使います。
settings-remember-key = この端末に保存する
settings-forget-keys = 保存したキーを消去
settings-temperature = 温度
settings-step-limit = ステップ数の上限
settings-candidates = 候補数
settings-candidates-title = 各質問にこの回数だけ、それぞれ独立に答えます。回答には結果が一致したかどうかが示されます
settings-stream = 返答をストリーミング表示（書かれるそばから表示）
settings-stream-title = オフにすると、返答はまとめて届きます。ストリーミングできないサーバーやプロキシ向けです
settings-read-budget = 1 質問あたりの読み取り上限
settings-read-budget-title = Web サーバー上のデータベースから 1 つの質問が読み取れる量（クエリ、確認、回答の再実行を含む）。0：上限なし
settings-read-budget-hint = Web サーバーから読むデータベースでは、合計で { $budget } を超えて読むクエリを止めます（既定は { $default } MB、0：上限なし）。リンクでは ?budget=MB で指定できます。
settings-read-budget-none = Web サーバーから読むデータベースでは、質問は必要なだけ読み取れます（0：上限なし）。
settings-safe-mode = セーフモード：モデルは SQL を書けません
settings-safe-mode-hint = モデルはこのデータベースから作った一覧からテーブル、フィールド、絞り込み、集計を選びます。SQL はページが書き、値は SQL と分けて渡します。

# A typed setting that is not taken (settings/mod.rs, settings/demo_endpoint.rs)
settings-base-url-not-web = ベース URL が Web アドレスではありません
settings-base-url-scheme = ベース URL は http:// か https:// で始まる必要があります
settings-base-url-no-host = ベース URL にホスト名がありません
settings-model-invalid = モデル名として使えません
settings-endpoint-empty = エンドポイントが空です
settings-endpoint-not-web = エンドポイントが Web アドレスではありません
settings-endpoint-scheme = エンドポイントは http:// か https:// で始まる必要があります
settings-endpoint-no-host = エンドポイントにホスト名がありません

# What the page's address asked for and was not used (settings/address.rs); the parameter's
# name and what it was given stay as they are
settings-address-provider = provider「{ $value }」は { $providers } のいずれでもありません
settings-address-base-url = { "base_url" }：{ $why }
settings-address-model = { "model" }：{ $why }
settings-address-mode-sql = mode=sql：リンクではセーフモードをオンにできますが、オフにはできません。設定でチェックを外してください
settings-address-mode = mode「{ $value }」は safe でも sql でもありません
settings-address-candidates = candidates「{ $value }」は 1 から { $most } までの整数ではありません
settings-address-budget = budget「{ $value }」は 0（上限なし）から { $most } までの MB 単位の整数ではありません
settings-address-endpoint = { "endpoint" }：{ $why }
settings-address-key = アドレス内の API キーは使いません。設定で入力してください（リンクからは削除してください）
settings-address-embed = embed「{ $value }」は 1 でも 0 でもありません
settings-address-theme = theme「{ $value }」は light でも dark でもありません
settings-address-notes = notes「{ $value }」：メモファイルは、このページのサイトか https のアドレスからだけ読み込みます

# A demo's endpoint (settings/demo_endpoint.rs, ui/demo_endpoint.rs, present/demo_endpoint.rs):
# why its card cannot be read, who answers, and a limit that ran out
settings-demo-card-too-large = カードが { $kb } KB を超えています
settings-demo-card-not-json = カードが askdb-proxy の送る JSON ではありません
settings-demo-card-format = カードの形式 { $format } は、このページでは読めません
settings-demo-card-provider = カードのプロバイダー「{ $provider }」は { $providers } のいずれでもありません
settings-demo-card-no-model = カードにモデルの指定がありません
settings-demo-card-unreadable = カードを読み取れませんでした
settings-demo-no-answer = 応答がありません。オフラインか、エンドポイントが停止しているか、このページからの接続を受け付けていません
# Who pays, when the card does not say
settings-demo-paid-by-author = デモの作成者
settings-demo-still-asking = どのモデルが答えるかを、デモのエンドポイントに問い合わせているところです。少し待ってからもう一度質問してください。
settings-demo-answered-by = ここでの質問には { $model } が答えます（費用負担：{ $paid_by }）
settings-demo-answered-by-left = ここでの質問には { $model } が答えます（費用負担：{ $paid_by }） · { $left ->
        [0] 今日のモデル呼び出しは残っていません
       *[other] 今日のモデル呼び出しは残り { $left } 回
    }
settings-demo-unreachable = このデモのエンドポイントに接続できませんでした（{ $why }）。ご自分のモデルを使ってください（設定）。
settings-demo-unreachable-recording = このデモのエンドポイントに接続できませんでした（{ $why }）。記録された会話を見るか、ご自分のモデルを使ってください（設定）。
settings-demo-readers-own = 設定でモデルを選んだため、質問はこのデモのエンドポイントではなく、そのモデルに送られます。
# $when is one of the settings-demo-when-… phrases below
settings-demo-limit-burst = 短い時間にこのデモへ多くの質問をしました。{ $when }また答えます。
settings-demo-limit-reader-day = このデモが 1 人の読者に 1 日に答える質問をすべて使いました。{ $when }また質問できます。
settings-demo-limit-demo-requests = このデモは、作成者が 1 日分の費用を負担する質問にすべて答えました。{ $when }また質問できます。
settings-demo-limit-demo-tokens = このデモは、作成者が 1 日分の費用を負担するモデルの利用量を使い切りました。{ $when }また利用できます。
settings-demo-limit-all-demos = 作成者のすべてのデモで使うモデルの予算を、今日の分は使い切りました。{ $when }また利用できます。
settings-demo-limit-other = このデモのエンドポイントは上限（{ $reason }）に達しました。{ $when }また答えます。
settings-demo-when-today = { $clock }（現地時間）に
settings-demo-when-tomorrow = 明日の { $clock }（現地時間）に
settings-demo-when-on = { $date } の { $clock }（現地時間）に
settings-demo-when-later = 後ほど

# The compact page for documentation (ui/embed.rs)
embed-more = askdb のその他の機能
embed-schema = スキーマ
embed-console = SQL コンソール
embed-open-full = askdb で開く ↗

# Check the model: the golden run (ui/golden_run, eval/said.rs)
golden-button-title = このデータベースの正解付きの質問をモデルに尋ね、モデルの結果を期待される結果と比べます
golden-check-the-model = モデルを検証
golden-intro = このデータベースの正解付きの質問 { $count } 件を、選んだモデルにそれぞれ新しい会話で尋ね、モデルの SQL の結果を期待される SQL の結果と比べます。期待される SQL がモデルに見えることはありません。
golden-checking = 検証中…
golden-run = 質問を実行
golden-stop = 停止
golden-download-markdown = レポートをダウンロード（Markdown）
golden-download-json = レポートをダウンロード（JSON）
golden-not-saved = ブラウザーがファイルを保存しませんでした（{ $why }）。
golden-asking = 質問 { $number } / { $total } を尋ねています…
# $stopped is yes or no
golden-summary = { $total } 問中 { $passed } 問正解、{ $tokens } トークン{ $broken ->
        [0] { "" }
       *[other] 、不備のあるチェック { $broken } 件
    }{ $stopped ->
        [yes] 、中断
       *[other] { "" }
    }
golden-summary-took = { $summary }（{ $took }）
golden-calibration-label = 一致は正しさを予測するか
golden-calibration-agreed = 一致した回答（ほかのどの結果よりも多くの候補が出した結果）：{ $asked } 問中 { $right } 問正解。下の各質問の結果は、最初の候補のものです。
golden-calibration-table = 較正
golden-column-agreeing = 一致した候補
golden-column-questions = 質問数
golden-column-agreed-right = 一致した回答が正解
golden-column-share-right = 正解率
golden-agreement = { $agreeing ->
        [0] 結果を出した候補なし
        [1] { $candidates } 件中 1 件（一致なし）
       *[other] { $candidates } 件中 { $agreeing } 件が一致
    }
golden-cost = { $steps } ステップ · { $tokens } トークン · { $took }
golden-expected-sql = 期待される SQL
golden-model-sql = モデルの SQL
golden-no-sql = SQL なし。
golden-outcome-pass = 合格
golden-outcome-fail = 不合格
golden-outcome-no-answer = 回答なし
golden-outcome-no-sql = { "SQL" } なし
golden-outcome-broken = チェック不備
golden-why-no-sql = 確認できる SQL なしで回答しました
golden-why-expected-failed = 期待される SQL が失敗しました：{ $why }
golden-why-reads-knowledge = モデルの SQL が、正解付きの質問を保存している { $table } を読んでいます
golden-why-model-sql-failed = モデルの SQL が失敗しました：{ $error }
golden-why-model-sql-did-not-run = モデルの SQL が実行されませんでした
golden-why-too-many = { $most } 行を超える結果を返すため、多すぎて比較できません
# How the model's result differs from the expected one; values are the data's
golden-differs-columns = 期待 { $expected } 列、実際 { $returned } 列
# $expected is a golden-rows phrase, $returned a golden-count one
golden-differs-row-count = 期待 { $expected }、実際 { $returned }
golden-differs-row = { $at ->
        [position] { $position } 行目が違います：{ $detail }
        [one] 1 行が違います：{ $detail }
        [many] { $differing } 行が違います。例：{ $detail }
       *[single] { $detail }
    }
golden-differs-value = { $column }（{ $name }）：期待 { $expected }、実際 { $returned }
golden-differs-whole = 期待 { $expected }、実際 { $returned }
golden-column = { $number } 列目
golden-differs-order = 同じ行が別の順序で並んでいます（{ $position } 行目から）。期待される SQL は順序を指定しています
golden-differs-too-many = どちらも { $rows } 行を超える結果を返すため、多すぎて比較できません
golden-rows = { $kind ->
        [more] { $count } 行超
        [about] 約 { $count } 行
       *[exact] { $count } 行
    }
golden-count = { $kind ->
        [more] { $count } 行超
        [about] 約 { $count } 行
       *[exact] { $count } 行
    }

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

count-rows = { $count } 行
count-rows-more-than = { $count } 行超
count-rows-about = 約 { $count } 行
count-first-rows = { $total } 行中、先頭 { $shown } 行
count-first-rows-more-than = { $total } 行超のうち先頭 { $shown } 行
count-first-rows-about = 約 { $total } 行のうち先頭 { $shown } 行
count-tables = { $tables } 個のテーブル
count-tables-and-views = { $tables } 個のテーブル、{ $views } 個のビュー
count-values-reading = 質問で使える値を読み込んでいます…
count-values-line = 質問で使える値：{ $coverage }
count-values-sentence = { $clause }。
count-values-not-read = { $sentence }読み取れなかったもの：{ $tables }。
count-values-unreadable-table = { $table }（{ $why }）
count-values-not-built = まだ値を索引していません
count-values-skipped = 値を索引していません。{ $why }
count-values-skip-datasette = データベースが Datasette サーバー上にあり、クエリのたびにサーバーへのリクエストになるためです
count-values-skip-no-statistics = どの列の値の種類が少ないかを示す統計（ANALYZE が書き込む sqlite_stat1）がなく、調べるにはテーブルを読む必要があるためです
count-values-skip-no-rows = どのテーブルからも行を読まない設定のためです
count-values-skip-statistics-unreadable = SQLite の統計（sqlite_stat1）を読み取れなかったためです（{ $error }）
count-values-cut-short = { $clause }。その後、{ $bound }に達したため { $at } で止めました（残り { $left } 件は未読）
count-values-bound-time = 時間の上限（{ $ms } ms）
count-values-bound-index-size = インデックスのサイズ上限（{ $size }）
count-values-bound-read-budget = 読み取り予算（{ $size }）
count-values-bound-seeks = 読み取り予算（データベースが読み取り量を報告しないため、{ $bytes } バイトのシーク { $seeks } 回として計算）
count-values-full = { $counts }を索引しました。すべての行を読みました
count-values-sampled = { $counts }を索引しました。{ $tables } は先頭 { $rows } 行だけを読みました
count-values-indexed-only = インデックスの先頭にあり、SQLite の統計（sqlite_stat1）で値の種類が少ないとされる列から、インデックスを { $seeks } 回シークして{ $counts }を索引しました（{ $read }）
count-values-bytes-read = { $size } を読み取り
count-values-reads-unreported = データベースは読み取り量を報告しません
count-values-counts = { $tables } 個のテーブルの { $columns } 列にある { $values } 個の値
count-values-no-table = なし
count-values-names = { $names }、{ $last }
count-values-names-and-more = { $names } ほか { $more } 件
console-heading = SQL コンソール
console-input-label = SQL クエリ
console-run = 実行
console-running = 実行中…
console-stop = 停止
console-keys-hint = Ctrl+Enter でクエリを実行します。読み取りのみ可能です。
console-stopped = クエリを停止しました。
console-row-cap = 行数の上限
console-deadline = 制限時間
result-label = クエリの結果
result-csv-title = 表示中の行を CSV ファイル（UTF-8）として保存します
result-csv-download = CSV をダウンロード
result-rows-label = 結果の行
result-null-title = NULL（値なし）
result-empty-text = 空の文字列
result-blob = BLOB、{ $bytes } バイト
result-show-less = 折りたたむ
result-show-all = 全 { $length } 文字を表示
chart-show-as = 結果の表示形式
chart-table = 表
chart-chart = グラフ
chart-description = { $column } ごとの { $series } の{ $kind ->
    [bar] 棒グラフ
   *[other] 折れ線グラフ
}
ledger-heading = モデルに送信した内容
ledger-nothing-yet = まだありません
ledger-hint = このページがモデルに送ったすべてのリクエストを、送ったとおり、また返ってきた回答のとおりに表示します。API キーはここに記録されません。
ledger-reads-heading = データベースから読み取った量
ledger-request-body = リクエスト本文
ledger-response-body = レスポンス本文
ledger-assembled-body = ストリーミングされた回答（結合済み）
ledger-download = ダウンロード
ledger-empty = （空）
ledger-read-on-demand-file = { $size }、ファイルから必要な部分だけ読み取り
ledger-read-on-demand-server = { $size }、{ $host } から必要な部分だけ読み取り（読み取りごとに HTTP の範囲リクエスト）
ledger-read-through-datasette = { $size }、Datasette サーバー経由で問い合わせ
ledger-downloaded-server-sends-whole = { $host } がファイル全体を送るため、{ $size } をダウンロード済み
ledger-downloaded-small = { $host } から全体をダウンロード済み（{ $size }。{ $below } MiB 未満のファイルは、このコンピューター上のファイルと同じようにすべての機能が使えるよう、全体をダウンロードします）
ledger-downloaded-asked = { $host } から全体をダウンロード済み（{ $size }）
ledger-its-server = サーバー
ledger-question-read = 「{ $question }」の読み取り：{ $reads }
ledger-questions-read = 質問 { $count } 件の読み取り：{ $reads }
ledger-reads-memory = メモリーから { $size }
ledger-reads-file = ファイルから { $size }（読み取り { $requests } 回）
ledger-reads-server = サーバーから { $size }（HTTP リクエスト { $requests } 回）
ledger-reads-datasette = Datasette サーバーへのリクエスト { $requests } 回で { $size }、{ $waited } ms
ledger-query-read = { $requests } 回の読み取りで { $size } を読み取り
ledger-server-requests = サーバーへのリクエスト { $requests } 回（{ $size }、{ $waited }）
ledger-server-asked = 開いてから Datasette サーバーに問い合わせた量：{ $requests }。
ledger-tokens = 入力 { $input } / 出力 { $output } トークン
ledger-tokens-with-cache = 入力 { $input }（{ $cache }）/ 出力 { $output } トークン
ledger-tokens-cached = うちキャッシュ { $count }
ledger-tokens-cache-written = キャッシュへの書き込み { $count }
ledger-bytes-sent = 送信 { $count } バイト
ledger-bytes-received = 受信 { $count } バイト
ledger-requests = リクエスト { $count } 件
ledger-waiting = 待機中…
ledger-no-answer = 応答なし：{ $reason }
ledger-stopped = 回答の前に停止
error-sqlite = SQLite のエラー：{ $message }
error-timeout = { $after } で停止しました。クエリが制限時間を超えました。データベースは開き直され、使える状態です。クエリにもっと時間をかけるには制限時間を延ばしてください。
error-too-large = 結果が { $megabytes } MB を超えています。選ぶ列や行を減らすか、長い値を短くする（{ $example }）か、集計してください
error-crashed-reopened = データベースエンジンが停止しました（{ $why }）。同じデータで再起動しました
error-crashed = データベースエンジンが停止しました（{ $why }）
error-unavailable = SQLite エンジンを起動できませんでした：{ $why }
error-not-a-database = SQLite データベースではありません：{ $why }
error-unreadable = ブラウザーがファイルを読み取れませんでした：{ $why }
error-byte-budget = 停止しました。このクエリはデータベースのサーバーから読み取り予算 { $limit } を超えて読み取ることになります（これまでに { $read } を読み取り済み）。予算を増やす（設定の「質問ごとの読み取り予算」）か、読み取る量を減らしてください。インデックスのある列で絞り込めば数ページで済みますが、テーブル全体の件数や並べ替えは全ページを読み取ります
error-changed = データベースが変更されました：{ $why }
error-read-failed = データベースを読み取れませんでした：{ $why }
error-fenced = { $name } には askdb のデータに関するメモが入っています（またはそれを読み取ります）。このデータベースではモデルは読み取れませんが、コンソールからは読み取れます
error-not-open = データベースが開かれていません
error-refused-empty = 実行する SQL 文がありません（空白かコメントだけです）
error-refused-too-long = この SQL は { $bytes } バイトあり、上限の { $limit } バイト（100 KB）を超えています。もっと短いクエリにしてください
error-refused-too-deep = この SQL は括弧が { $depth } 段入れ子になっていて、上限の { $limit } を超えています。入れ子を浅くしてください（入れ子のサブクエリの代わりに { $with } 句を使うなど）
error-refused-several-statements = 実行できるのは読み取り専用の文 1 つだけです。このテキストには文が { $count } 個あります。1 つずつ実行してください
error-refused-not-read-only = 実行できるのは読み取り専用の文 1 つだけです。これは { $kind } 文です。代わりに { $select }（または { $with }、{ $values }、{ $explain }）を 1 つ書いてください
error-refused-not-read-only-an = 実行できるのは読み取り専用の文 1 つだけです。これは { $kind } 文です。代わりに { $select }（または { $with }、{ $values }、{ $explain }）を 1 つ書いてください
error-refused-function = 関数 { $name }() は使えません。このデータベースの外のものを変更したり読み取ったりできるためです
error-refused-pragma = { $name } は使えません。SQLite のプラグマ関数で実行できるのは、次の単純な読み取りだけです：{ $allowed }
error-refused-parameter = `{ $token }` はパラメーターですが、ここではパラメーターに値を割り当てません。値そのものを SQL に書いてください（例：'東京' や 42）
error-refused-unbound-parameters = コンパイルされた文が { $values } 個の値と合いません：{ $reason }
error-refused-malformed = SQL を読み取れません：{ $reason }
error-remote-unreachable = サーバーに接続できませんでした（{ $why }）。アドレスと、サーバーのクロスオリジン設定（{ $header }）が他のサイトからのファイルの読み取りを許可しているかを確認してください
error-remote-range-ignored = サーバーは一部を求められてもファイル全体を送ります（{ $header } ヘッダーを無視します）。そのため、データベースを必要な部分だけ読み取ることができません
error-remote-status = ファイルの先頭へのリクエストにサーバーが { $status } を返しました。アドレスを確認してください
error-remote-status-private = ファイルの先頭へのリクエストにサーバーが { $status } を返しました。アドレスと、ファイルが公開されているかを確認してください
error-remote-header-hidden = サーバーは範囲リクエストに応答しますが、クロスオリジン（{ $cors }）設定により、このページがファイルを部分的に読み取るのに必要な { $header } ヘッダーが隠されています
error-remote-header-missing = サーバーが { $header } ヘッダーなしでファイルの一部を返したため、ファイルの長さがわかりません
error-remote-bad-content-range = サーバーの { $header }（{ $value }）は、このページで読み取れる形式ではありません
error-remote-no-length = サーバーがファイルの長さを示していません（{ $header } が { $end } で終わっています）
error-remote-no-validator = サーバーが { $etag } も { $modified } ヘッダーも送らないため、読み取りの合間にファイルが新しい版に変わっても区別できません。部分的な読み取りは行いません
error-datasette-bad-address = Datasette サーバー上のデータベースのアドレスではありません（{ $why }）。データベースのページのアドレス https://host/dbname の形で指定してください
error-datasette-no-cors = { $server } の Datasette サーバーは応答しましたが、他のページに回答の読み取りを許可していません。{ $flag } を付けて起動してください
error-datasette-unreachable = { $server } の Datasette サーバーに接続できませんでした（{ $why }）。アドレスと、サーバーが動いているかを確認してください。ブラウザーから読み取れるのは { $flag } を付けて起動したサーバーだけです
error-datasette-time-limit = Datasette サーバーが制限時間でクエリを止めました：{ $message } 読み取る量の少ないクエリ（インデックスのある列での絞り込み、少ない結合）なら早く終わります
error-datasette-sql-not-allowed = Datasette サーバーは、このページからの { $database } への SQL を実行しません（{ $status }）。このデータベースの { $setting } 設定がオフになっているか、API トークンが必要です。所有者に SQL の許可を頼むか、SQL を実行できるトークンを入力してください
error-datasette-no-such-database = { $server } の Datasette サーバーにデータベース { $database } はありません。アドレスの最後の部分を確認してください（一覧は { $server }/ にあります）
error-datasette-not-datasette = このアドレスは Datasette の JSON ではなく { $what } を返しました（{ $status }）。Datasette サーバー上のデータベースのアドレス（https://host/dbname）を指定してください
error-datasette-redirect = Datasette サーバーがクエリを別の場所（{ $to }）に転送しましたが、このページは転送先をたどりません。応答するサーバー上のデータベースのアドレスを指定してください
error-datasette-server = Datasette サーバーが { $status } を返しました：{ $message }
error-after-stop-ready = データベースは次のクエリを実行できる状態です。
error-after-stop-reopens = このデータベースは必要な部分だけ読み取っています。ワーカーを停止したため、次のクエリはファイルを開き直し（数ページ）、ページキャッシュ（最大 { $cache }）が空の状態から始まるので、通常より多く読み取ることがあります。
error-after-stop-left-to-server = クエリは Datasette サーバーに任せました。サーバー自身の制限時間で終了します。ページからはこれ以上何も問い合わせません。
