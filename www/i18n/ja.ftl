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
open-remote-unreachable = サーバーに接続できませんでした（{ $why }）。アドレスと、サーバーのクロスオリジン設定（Access-Control-Allow-Origin）で他のサイトからファイルを読めるようになっているかを確認してください
open-remote-range-ignored = サーバーは一部分を求められてもファイル全体を送ります（Range ヘッダーを無視します）。そのため、このデータベースはオンデマンドで読み込めません
open-remote-status-private = ファイル先頭の要求に対してサーバーが { $status } を返しました。アドレスと、ファイルが公開されているかを確認してください
open-remote-status = ファイル先頭の要求に対してサーバーが { $status } を返しました。アドレスを確認してください
open-remote-header-hidden = サーバーは範囲リクエストに応じますが、クロスオリジン（CORS）設定により、ファイルを部分的に読むのに必要な { $header } ヘッダーがこのページから見えません
open-remote-header-missing = サーバーが { $header } ヘッダーなしでファイルの一部を返したため、ファイルの長さがわかりません
open-remote-bad-content-range = サーバーの Content-Range（{ $value }）はこのページで読める形式ではありません
open-remote-no-length = サーバーがファイルの長さを示していません（Content-Range が /* で終わっています）
open-remote-no-validator = サーバーが ETag も Last-Modified ヘッダーも送らないため、2 回の読み込みの間にファイルが新しい版に変わっても見分けられません。部分的な読み込みは行いません
open-remote-set-cors = サーバーは他のサイトからのファイルの読み込みを許可する必要があります。Access-Control-Allow-Origin（* またはこのページのオリジン）を送り、部分的に読むために Access-Control-Allow-Headers: Range と Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified も送ってください。
open-remote-set-ranges = nginx と Apache は通常の静的ファイルには Range リクエストで応じますが、その場で圧縮するファイル（.db ファイルでは gzip をオフにしてください。プロキシの背後の nginx では proxy_force_ranges on）や生成するファイルには応じません。S3、R2、CloudFront は応じます（バケットの CORS ルールで Range ヘッダーを許可し、CloudFront ではそれを転送する必要があります）。GitHub Pages と Netlify は、ファイルをそのまま配信する場合に応じます。Python の http.server は応じません。
open-remote-set-expose = サーバーは Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified を送る必要があります。nginx: add_header Access-Control-Expose-Headers "Content-Range, Content-Length, ETag, Last-Modified" always、Apache: Header set Access-Control-Expose-Headers "..."、S3 と R2: バケットの CORS ルールの ExposeHeaders（AllowedHeaders: Range も）、CloudFront: それらを公開するレスポンスヘッダーポリシー、Netlify: _headers ファイル。GitHub Pages ではヘッダーを設定できません。askdb をファイルと同じサイトから配信するか、ファイルを別のホストから配信してください。
open-remote-set-static = ファイルは通常の静的ファイルとして（生成せず、その場で圧縮せずに）、HTTP Range リクエストに完全に対応したホストから配信してください。Range リクエストへの応答はすべて 206 で、Content-Range: bytes START-END/LENGTH を含む必要があります。
open-remote-set-validator = 静的ホストはどのファイルにも ETag か Last-Modified を付けて送ります（nginx、Apache、S3、R2、CloudFront、GitHub Pages、Netlify は両方を送ります）。ファイルを配信するプロキシ、関数、スクリプトはこれらをそのまま渡す必要があり、別のサイトからは ETag を公開する必要があります（Access-Control-Expose-Headers: ETag。Last-Modified は不要です）。
open-reading-its-server = そのサーバー
open-reading-file-pages = { $size }、ファイルからオンデマンドで読み込み
open-reading-ranges = { $size }、{ $host } からオンデマンドで読み込み（読み込みごとに HTTP 範囲リクエスト）
open-reading-datasette = { $size }、Datasette サーバー経由で問い合わせ
open-reading-server-sends-whole = { $host } はファイル全体を送るサーバーです。{ $size } をダウンロードしました
open-reading-small = { $host } から全体をダウンロードしました（{ $size }。{ $mib } MiB 未満のファイルは、このコンピューター上のファイルと同じようにすべての機能が使えるよう全体をダウンロードします）
open-reading-asked = { $host } から全体をダウンロードしました（{ $size }）
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
open-import-no-header-value = 1 行目は { $column } 列目にデータと読める「{ $value }」があるため、見出し行ではなくデータとして読み込みました。列名は column_1、column_2、… です
open-import-no-header-repeated = 1 行目に「{ $value }」が 2 回現れるため、見出し行ではなくデータとして読み込みました。列名は column_1、column_2、… です
open-import-no-header-blank = 1 行目が空のため、見出し行ではなくデータとして読み込みました。列名は column_1、column_2、… です
open-import-columns = 列: { $columns }。
open-import-leading-zeros = { $column } は TEXT のままです。{ $example } のような値の先頭のゼロは、数値にすると失われるためです。
open-import-booleans = { $column } は true/false を含むため、1/0 として保存しました。
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
open-import-error-unrecognised = { $file } はインポートできません: { $why }。askdb がインポートできるのは CSV、TSV、区切り文字付きの .txt、JSON（オブジェクトの配列、または 1 行に 1 つのオブジェクト）、.xlsx ファイルです
open-import-not-data-zip = zip アーカイブです。zip 形式のうちインポートできるのは Excel ブック（.xlsx）だけです
open-import-not-data-xls = 古い形式の Excel ブック（.xls）です。.xlsx（Excel ブック）として保存し、そのファイルを開いてください
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
open-summary-tables = { $tables } 個のテーブル
open-summary-tables-views = { $tables } 個のテーブル、{ $views } 個のビュー
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
open-db-sqlite = SQLite のエラー: { $message }
open-db-unavailable = SQLite エンジンを起動できませんでした: { $why }
open-db-not-a-database = SQLite データベースではありません: { $why }
open-db-unreadable = ブラウザーがファイルを読み込めませんでした: { $why }
open-db-crashed-reopened = データベースエンジンが停止しました（{ $why }）。同じデータで再起動しました
open-db-crashed = データベースエンジンが停止しました（{ $why }）
open-db-changed = データベースが変更されました: { $why }
open-db-read-failed = データベースを読み込めませんでした: { $why }
open-header-empty = ファイルが空です
open-header-too-short = ファイルは { $bytes } バイトしかありません。SQLite データベースは少なくとも { $least } バイトあります
open-header-text = SQLite のヘッダーで始まっていません。テキストファイル（CSV、SQL、JSON など）のようです
open-header-not-sqlite = SQLite のヘッダー（"SQLite format 3"）で始まっていません
open-header-page-size = ヘッダーのページサイズ（{ $size }）が不正です
open-header-truncated = ファイルが途中で切れています。ヘッダーでは { $expected } バイトのはずですが、{ $bytes } バイトしかありません
open-header-part-page = ファイルが途中で切れています。{ $bytes } バイトは { $page_size } バイトのページの整数倍ではありません
open-datasette-bad-address = Datasette サーバー上のデータベースのアドレスではありません（{ $why }）。データベースのページのアドレスを https://host/dbname の形で指定してください
open-datasette-no-cors = { $server } の Datasette サーバーは応答しましたが、他のページから応答を読むことを許可していません。--cors を付けて起動してください
open-datasette-unreachable = { $server } の Datasette サーバーに接続できませんでした（{ $why }）。アドレスとサーバーが動いているかを確認してください。ブラウザーが読めるのは --cors を付けて起動したサーバーだけです
open-datasette-time-limit = Datasette サーバーが制限時間でクエリを止めました: { $message } 読み込みの少ないクエリ（インデックスを使う絞り込み、少ない結合）ほど早く終わります
open-datasette-sql-not-allowed = Datasette サーバーは、このページのために { $database } で SQL を実行しません（{ $status }）。このデータベースでは allow_sql の設定がオフか、API トークンが必要です。所有者に SQL の許可を依頼するか、SQL を実行できるトークンを入力してください
open-datasette-no-such-database = { $server } の Datasette サーバーにはデータベース { $database } がありません。アドレスの最後の部分を確認してください（一覧は { $server }/ にあります）
open-datasette-not-datasette = アドレスは Datasette の JSON ではなく、{ $what } を { $status } で返しました。Datasette サーバー上のデータベースのアドレス（https://host/dbname）を指定してください
open-datasette-redirect = Datasette サーバーがクエリを別の場所（{ $to }）に転送しましたが、このページは転送先をたどりません。応答するサーバー上のデータベースのアドレスを指定してください
open-datasette-server = Datasette サーバーが { $status } を返しました: { $message }
open-datasette-no-scheme = http:// または https:// がありません
open-datasette-not-http = http と https のアドレスだけが使えます
open-datasette-no-host = ホストがありません
open-datasette-credentials = ユーザー名やパスワードが含まれています。トークンは別に入力してください
open-datasette-host-space = ホストに空白かバックスラッシュが含まれています
open-datasette-server-page = サーバー自身のページで、データベースではありません
open-datasette-no-database = ホストの後にデータベース名がありません
open-part-not-loaded = askdb の一部をダウンロードできませんでした（接続が切れているか、読み込んだ後にページが更新された可能性があります）。もう一度試すか、ページを再読み込みしてください。
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
open-step-model-view = モデルに見せる内容を準備しています
open-step-notes = メモを読み込んでいます
open-schema-unread = 開きましたが、スキーマを読み込めませんでした（{ $why }）
open-download-unreachable = { $address } からのダウンロードに失敗しました（{ $why }）。サーバーに接続できなかったか、サーバーがクロスオリジンのリクエストを許可していません。別のサイトにあるデータベースをここで開けるのは、そのサーバーが Access-Control-Allow-Origin ヘッダーを送る場合だけです
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

## Settings and the model (ui/settings, demo_endpoint, number_input, golden_run, embed; present/demo_endpoint; settings/*)
# (the model, keys, limits, the demo's endpoint, checking the model)

## The data described (ui/schema_view, hiding, knowledge; present/hiding; knowledge's errors)
# (the schema, hidden columns, notes about the data)

## The data queried (ui/console, result_table, chart_view, ledger_view, table_scroll, value_index, follow, task; present/ledger, value_index, errors, chart, csv, time; count)
# (the console, results, charts, the ledger, a database's errors)
