# askdb's sentences in English: the page's built-in language, and the one every other
# catalogue follows (docs/translating.md). Fluent syntax: https://projectfluent.org
# Sections follow the page's parts; keep a message in the section of the code that says it.

## The language itself

# This language's name in its own words (the language menu).
language-name = English
language-label = Language
language-load-failed = The page's { $language } text could not be loaded ({ $why }). It is shown in English.
address-lang-unknown = lang "{ $asked }" is not one of { $languages }

## The page's frame (ui/mod.rs, ui/embed.rs)
# (the header, the tagline, the embed's frame)

page-tagline = Ask your SQLite database. Your file stays in this browser.

## Opening a database (ui/database_panel, intake, opening, open_steps, importing, recent, address_field, datasette_form, connection, lazy; present/kept, remote, readiness; import report; identify)
# (every status, progress line and error of an open)
open-recent-tables = { $count ->
    [one] { $count } table
   *[other] { $count } tables
}
open-recent-copy = a copy kept here
open-recent-handle = the file on this computer (the browser asks first)
open-recent-address = at { $host }
open-recent-datasette = on the Datasette server at { $host }
open-recent-opened-now = opened just now
open-recent-opened-minutes = { $count ->
    [one] opened { $count } minute ago
   *[other] opened { $count } minutes ago
}
open-recent-opened-hours = { $count ->
    [one] opened { $count } hour ago
   *[other] opened { $count } hours ago
}
open-recent-opened-yesterday = opened yesterday
open-recent-opened-days = { $count ->
    [one] opened { $count } day ago
   *[other] opened { $count } days ago
}
open-ago-now = just now
open-ago-minutes = { $count ->
    [one] { $count } minute ago
   *[other] { $count } minutes ago
}
open-ago-hours = { $count ->
    [one] { $count } hour ago
   *[other] { $count } hours ago
}
open-ago-yesterday = yesterday
open-ago-days = { $count ->
    [one] { $count } day ago
   *[other] { $count } days ago
}
open-recent-changed-size = { $name } changed since it was last opened here (it was { $was } and is { $now } now): it is opened as it is now, and notes or hidden choices made for it before may not apply to it.
open-recent-changed-saved = { $name } changed since it was last opened here (it was saved again since, at the same size): it is opened as it is now, and notes or hidden choices made for it before may not apply to it.
open-recent-storage = This site stores { $usage } here, of the { $quota } this browser allows it.
open-remote-offer-sized = It can be downloaded whole instead ({ $size }) and read in this browser's memory.
open-remote-offer-unsized = It can be downloaded whole instead and read in this browser's memory (its size is not known yet: the download stops past { $limit }).
open-remote-offer-too-large = At { $size } it is too large to download whole here (at most { $limit }).
open-remote-unreachable = the server could not be reached ({ $why }): check the address, and that its cross-origin settings (Access-Control-Allow-Origin) let other sites read the file
open-remote-range-ignored = the server sends the whole file when asked for a part (it ignores the Range header), so the database cannot be read on demand
open-remote-status-private = the server answered { $status } to a request for the start of the file: check the address and that the file is public
open-remote-status = the server answered { $status } to a request for the start of the file: check the address
open-remote-header-hidden = the server answers range requests, but its cross-origin (CORS) settings hide the { $header } header this page needs to read the file in parts
open-remote-header-missing = the server answered a part of the file without the { $header } header, so the file's length is unknown
open-remote-bad-content-range = the server's Content-Range ({ $value }) is not one this page can read
open-remote-no-length = the server does not say the file's length (its Content-Range ends in /*)
open-remote-no-validator = the server sends neither an ETag nor a Last-Modified header, so a new version of the file could not be told from the old one between two reads: it is not read in parts
open-remote-set-cors = The server must allow other sites to read the file: it must send Access-Control-Allow-Origin (* or this page's origin) and, for reading in parts, Access-Control-Allow-Headers: Range and Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified.
open-remote-set-ranges = nginx and Apache answer Range requests for plain static files, but not for a file they compress on the fly (turn gzip off for .db files; nginx behind a proxy: proxy_force_ranges on) or generate. S3, R2 and CloudFront answer them (the bucket's CORS rules must allow the Range header, and CloudFront must forward it). GitHub Pages and Netlify answer them for files they serve as they are. Python's http.server does not.
open-remote-set-expose = The server must send Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified. nginx: add_header Access-Control-Expose-Headers "Content-Range, Content-Length, ETag, Last-Modified" always; Apache: Header set Access-Control-Expose-Headers "..."; S3 and R2: ExposeHeaders in the bucket's CORS rules, with AllowedHeaders: Range; CloudFront: a response headers policy that exposes them; Netlify: a _headers file. GitHub Pages lets no header be set: serve askdb from the same site as the file, or the file from another host.
open-remote-set-static = Serve the file as a plain static file (not generated, not compressed on the fly) from a host that supports HTTP Range requests fully: each answer to a Range request must be 206 with Content-Range: bytes START-END/LENGTH.
open-remote-set-validator = Static hosts send ETag or Last-Modified with every file (nginx, Apache, S3, R2, CloudFront, GitHub Pages, Netlify send both); a proxy, a function or a script that serves the file must pass them on, and on another site the ETag must be exposed (Access-Control-Expose-Headers: ETag; Last-Modified needs none).
open-reading-its-server = its server
open-reading-file-pages = { $size }, read on demand from the file
open-reading-ranges = { $size }, read on demand from { $host } (each read is an HTTP range request)
open-reading-datasette = { $size }, asked through a Datasette server
open-reading-server-sends-whole = { $host } sends whole files; downloaded { $size }
open-reading-small = downloaded whole from { $host } ({ $size }; files under { $mib } MiB are, so that everything works as for a file on this computer)
open-reading-asked = downloaded whole from { $host } ({ $size })
open-ready-no-question = Type a question first.
open-ready-no-database = Open a database first (or try the demo).
open-ready-no-golden-questions = This database has no golden questions.
open-ready-model-view-preparing = The copy of the database without what is hidden is still being made: ask again in a moment.
open-ready-model-view-failed = The model cannot be asked: the copy without what is hidden could not be made ({ $why }). Show the hidden items again, or open the database again.
open-ready-model-view-refused = The model cannot be asked on this database: { $why }.
open-ready-no-model = Choose a model first: open Settings and enter the model's name.
open-ready-no-key = Enter your API key first: { $provider } answers nothing without one (Settings, API key).
open-import-read-delimited = { $file } was read as delimited text ({ $delimiter ->
        [comma] comma-separated
        [tab] tab-separated
        [semicolon] semicolon-separated
        [pipe] separated by |
       *[other] delimited
    }){ $encoding ->
        [utf8-bom] , in UTF-8 with a byte order mark
        [utf16le] , in UTF-16 (little-endian)
        [utf16be] , in UTF-16 (big-endian)
       *[utf8] {""}
    }.
open-import-read-json-array = { $file } was read as a JSON array{ $encoding ->
        [utf8-bom] , in UTF-8 with a byte order mark
        [utf16le] , in UTF-16 (little-endian)
        [utf16be] , in UTF-16 (big-endian)
       *[utf8] {""}
    }.
open-import-read-json-lines = { $file } was read as JSON, one value per line{ $encoding ->
        [utf8-bom] , in UTF-8 with a byte order mark
        [utf16le] , in UTF-16 (little-endian)
        [utf16be] , in UTF-16 (big-endian)
       *[utf8] {""}
    }.
open-import-read-xlsx = { $file } was read as an Excel workbook: { $sheets ->
        [one] { $sheets } sheet
       *[other] { $sheets } sheets
    }.
open-import-empty-sheets = Empty sheets made no table: { $sheets }.
open-import-table-rows = Table { $table }: { $read ->
        [one] { $read } row
       *[other] { $read } rows
    } read and written.
open-import-table-rows-stopped = Table { $table }: { $read ->
        [one] { $read } row
       *[other] { $read } rows
    } read, { $written ->
        [one] { $written } row
       *[other] { $written } rows
    } written (the import stopped before the end).
open-import-sheet-rows = Table { $table } (sheet { $sheet }): { $read ->
        [one] { $read } row
       *[other] { $read } rows
    } read and written.
open-import-sheet-rows-stopped = Table { $table } (sheet { $sheet }): { $read ->
        [one] { $read } row
       *[other] { $read } rows
    } read, { $written ->
        [one] { $written } row
       *[other] { $written } rows
    } written (the import stopped before the end).
open-import-header-numbers-below = The first row was taken as the header because it is text above numbers (under "{ $column }").
open-import-header-distinct-text = The first row was taken as the header because its cells are all different text; every column is text, so this is a guess: if the first row is data, its values are the column names.
open-import-header-only-row = The only row was taken as the header: the table has columns and no rows.
open-import-no-header-value = The first row was read as data, not as a header, because it holds "{ $value }" in column { $column }, which reads as data; the columns are named column_1, column_2, …
open-import-no-header-repeated = The first row was read as data, not as a header, because "{ $value }" appears in it twice; the columns are named column_1, column_2, …
open-import-no-header-blank = The first row was read as data, not as a header, because it is empty; the columns are named column_1, column_2, …
open-import-columns = Columns: { $columns }.
open-import-leading-zeros = { $column } stays TEXT: values such as { $example } have leading zeros that a number would lose.
open-import-booleans = { $column } holds true/false, stored as 1/0.
open-import-places = { $kind ->
        [element] { $listed ->
            [one] element
           *[other] elements
        }
        [row] { $listed ->
            [one] row
           *[other] rows
        }
       *[line] { $listed ->
            [one] line
           *[other] lines
        }
    } { $list }{ $more ->
        [none] {""}
       *[other] { " " }and { $more } more
    }
open-import-ragged = { $count ->
        [one] { $count } row
       *[other] { $count } rows
    } had another number of fields than the first row ({ $places }): short rows were filled with NULL, and fields past the header went into extra columns, so nothing was dropped.
open-import-undecodable = { $kind ->
        [element] { $count ->
            [one] { $count } element
           *[other] { $count } elements
        }
        [row] { $count ->
            [one] { $count } row
           *[other] { $count } rows
        }
       *[line] { $count ->
            [one] { $count } line
           *[other] { $count } lines
        }
    } held bytes that are not text in this encoding ({ $places }); each was replaced by �.
open-import-duplicate-keys = { $count ->
        [one] { $count } object
       *[other] { $count } objects
    } had a key twice ({ $places }); the last value was kept.
open-import-error-sqlite = { $file } is a SQLite database: open it on its own, as a database, not with other files to import
open-import-error-unrecognised = { $file } cannot be imported: { $why }. askdb imports CSV, TSV, delimited .txt, JSON (an array of objects or one object per line) and .xlsx files
open-import-not-data-zip = it is a zip archive; of those only Excel workbooks (.xlsx) are imported
open-import-not-data-xls = it is an old Excel workbook (.xls): save it as .xlsx (Excel Workbook) and open that
open-import-not-data-binary = it holds binary data, not text
open-import-not-data-json = it is named as JSON but does not start with [ or { "{" }
open-import-not-data-delimiter = no delimiter (comma, tab, semicolon or |) separates its first lines into columns
open-import-error-empty = { $file } is empty: there is nothing to import
open-import-error-too-many-columns = { $file } has { $columns } columns; SQLite tables hold at most { $most }. Split the file into narrower ones, or check that its delimiter is the one meant
open-import-error-json = { $file } is not valid JSON at line { $line }: { $message }. A JSON file must hold an array of objects, or one object per line
open-import-error-workbook = { $file } could not be read as an Excel workbook ({ $message }); save it again from Excel as .xlsx
open-import-error-read = { $file } could not be read ({ $message }); it may have changed or moved since it was chosen: choose it again
open-import-error-changed = { $file } changed while it was being imported: choose it again once it is saved
open-import-error-write = the database being made refused a write ({ $message }); the tab may be short of memory
open-import-error-no-files = no file was given to import
open-import-sqljs-not-loaded = sql.js did not load: { $why }
open-import-sqljs-not-started = sql.js did not start: { $why }
open-import-not-an-address = { $address } is not an address
open-import-worker-not-started = the import worker did not start: { $why }
open-import-not-handed = the files could not be handed to the import worker: { $why }
open-import-worker-unknown-answer = the import worker answered nothing it knows
open-import-worker-failed = the import worker failed: { $why }
open-import-no-database = the import worker sent no database
open-import-not-kept = the database made could not be kept: { $why }
open-import-label-others = { $first } + { $others ->
        [one] { $others } other file
       *[other] { $others } other files
    }
open-import-progress = Importing { $files } ({ $rows ->
        [one] { $rows } row
       *[other] { $rows } rows
    } read)
open-import-worker-stopped = the import worker stopped
open-import-stopped = the import was stopped; nothing was opened
open-import-name = { $files } (imported)
open-heading = Database
open-demo = Open the demo
open-file = Open a file…
open-hint = Or drop a SQLite file (or a saved conversation, to replay it, or a notes file) anywhere on this page. CSV, TSV, JSON and Excel files become a database, one table per file or sheet (several at once can be joined). It is read here, in your browser, and never uploaded. From a web address, a small file is downloaded whole and a large one read in parts, only the pages a query needs.
open-picker-failed = The browser could not show its file picker ({ $why }). Drop the file on the page instead.
open-stop = Stop
open-progress = Progress
open-none = No database is open.
open-summary-tables = { $tables ->
        [one] { $tables } table
       *[other] { $tables } tables
    }
open-summary-tables-views = { $tables ->
        [one] { $tables } table
       *[other] { $tables } tables
    }, { $views ->
        [one] { $views } view
       *[other] { $views } views
    }
open-import-report = How the files were read
open-import-download = Download as .db ({ $file })
open-server-help = What to set on your server
open-download-whole-sized = Download it whole ({ $size })
open-download-whole = Download it whole
open-drop = Drop the database file to open it
open-demo-name = { $file } (demo)
open-reading = Reading { $name }
open-downloading = Downloading { $name }
open-failed = Could not open { $name }: { $why }.
open-failed-still-open = Could not open { $name }: { $why }. { $open } is still open.
open-replay-failed = Could not replay { $name }: { $why }. Nothing of it was run.
open-replay-failed-still-open = Could not replay { $name }: { $why }. Nothing of it was run. { $open } is still open.
open-notes-failed = Could not read the notes file { $name }: { $why }.
open-notes-failed-still-open = Could not read the notes file { $name }: { $why }. { $open } is still open.
open-not-loaded = Could not open { $name }. { $why }
open-not-loaded-still-open = Could not open { $name }. { $why } { $open } is still open.
open-not-data-file = { $file } is not a data file (CSV, TSV, JSON or Excel): several files open together only when all of them are, as one database with a table each; open a database, a conversation or a notes file on its own
open-not-an-address = "{ $address }" is not an address
open-conversation-not-utf8 = the conversation file is not UTF-8 text
open-db-sqlite = SQLite error: { $message }
open-db-unavailable = the SQLite engine could not start: { $why }
open-db-not-a-database = not a SQLite database: { $why }
open-db-unreadable = the browser could not read the file: { $why }
open-db-crashed-reopened = the database engine stopped ({ $why }); it was restarted on the same data
open-db-crashed = the database engine stopped ({ $why })
open-db-changed = the database changed: { $why }
open-db-read-failed = the database could not be read: { $why }
open-header-empty = the file is empty
open-header-too-short = the file has only { $bytes } bytes; a SQLite database has at least { $least }
open-header-text = it does not start with the SQLite header; it looks like a text file (CSV, SQL or JSON?)
open-header-not-sqlite = it does not start with the SQLite header ("SQLite format 3")
open-header-page-size = the header names an invalid page size ({ $size })
open-header-truncated = the file is truncated: its header describes { $expected } bytes but it has { $bytes }
open-header-part-page = the file is truncated: { $bytes } bytes is not a whole number of { $page_size }-byte pages
open-datasette-bad-address = not the address of a database on a Datasette server ({ $why }): give it as https://host/dbname, the address of the database's page
open-datasette-no-cors = the Datasette server at { $server } answered, but does not let other pages read its answers: start it with --cors
open-datasette-unreachable = the Datasette server at { $server } could not be reached ({ $why }): check the address and that the server runs; a browser reads only a server started with --cors
open-datasette-time-limit = the Datasette server stopped the query at its time limit: { $message } A query that reads less (an indexed filter, fewer joins) finishes sooner
open-datasette-sql-not-allowed = the Datasette server does not run SQL on { $database } for this page ({ $status }): its allow_sql setting is off for this database, or it needs an API token. Ask its owner to allow SQL, or enter a token that may execute SQL
open-datasette-no-such-database = the Datasette server at { $server } has no database { $database }: check the last part of the address (its list is at { $server }/)
open-datasette-not-datasette = the address answered { $status } with { $what }, not Datasette's JSON: give the address of a database on a Datasette server (https://host/dbname)
open-datasette-redirect = the Datasette server sent the query elsewhere ({ $to }), which this page does not follow: give the address of the database on the server that answers
open-datasette-server = the Datasette server answered { $status }: { $message }
open-datasette-no-scheme = no http:// or https://
open-datasette-not-http = only http and https addresses
open-datasette-no-host = no host
open-datasette-credentials = it carries a user name or password; enter a token apart instead
open-datasette-host-space = the host has a space or a backslash
open-datasette-server-page = it is one of the server's own pages, not a database
open-datasette-no-database = no database named after the host
open-part-not-loaded = A part of askdb could not be downloaded (is the connection down, or was the page updated since it was loaded?). Try again, or reload the page.
open-opening = Opening { $name }
open-opening-on-demand = Opening { $name } (read on demand: only the pages a query needs)
open-asking-host = Asking { $host } for { $name }
open-at-address = { $address }: { $why }
open-downloading-from = Downloading { $name } from { $host }
open-opening-remote = Opening { $name } on demand from { $host }
open-refused = { $address }: { $problem }
open-refused-offer = { $address }: { $problem }. { $offer }
open-asking-datasette = Asking the Datasette server for { $name }
open-reading-schema = Reading the schema
open-counting = Counting the rows of { $name }'s tables
open-identifying = Identifying { $name } (for its notes and hidden choices)
open-no-identity = no identity
open-step-model-view = Preparing what the model may see
open-step-notes = Reading the notes
open-schema-unread = it opened, but its schema could not be read ({ $why })
open-download-unreachable = the download from { $address } failed ({ $why }). Either the server could not be reached, or it does not allow cross-origin requests: a database on another site opens here only if its server sends the header Access-Control-Allow-Origin
open-download-status = the server at { $address } answered { $status } { $text }
open-download-stopped = the download stopped ({ $why })
open-download-too-large = at { $size } it is larger than the { $most } the page downloads whole
open-download-changed = the file on the server changed while it was downloaded ({ $why }): open it again
open-file-unreadable = the browser could not read the file ({ $why })
open-recent-heading = Recent databases
open-recent-forget = Forget
open-recent-forget-name = Forget { $name }
open-recent-forget-all = Forget all
open-recent-kept = Kept in this browser: it is in Recent databases, and reopens with a click.
open-recent-keep = Keep this database in this browser
open-recent-keeping = Keeping a copy…
open-recent-keep-hint = A copy stays in this browser's storage for this page, to reopen it from Recent databases on your next visit. It is never uploaded.
open-recent-list-not-saved = This browser did not let the page save its list of recent databases (a private window, or storage turned off): it lasts until the tab closes.
open-recent-not-listed = { $name } is not listed to reopen: { $why }.
open-recent-conversations-kept = Its conversations could not be forgotten: { $why }.
open-recent-all-conversations-kept = The kept conversations could not be forgotten: { $why }.
open-recent-not-kept = Not kept: { $why }.
open-recent-not-whole = it is not a file read whole here, of at most 512 MiB
open-recent-none-open = no database is open
open-recent-bytes-gone = its bytes are not here
open-recent-not-removed = A kept copy could not be removed: { $why }.
open-store-not-available = this browser keeps no files for this page (a private window, or storage turned off): nothing was kept
open-store-full = this browser's storage for this page is full: forget a kept database, or open the file again from your disk
open-store-missing = the kept copy is gone (the browser may have cleared this site's storage): open the file again from your disk
open-store-failed = the browser could not keep it ({ $why })
open-idb-not-available = this browser keeps nothing for this page (a private window, or storage turned off)
open-idb-full = this browser's storage for this page is full
open-recent-reopen-failed = Could not reopen { $name }: { $why }.
open-recent-handle-gone = Could not reopen { $name }: this browser no longer has its handle to the file. Open it again from your disk.
open-recent-not-allowed = Could not reopen { $name }: the browser did not allow reading it. Reopen it and allow reading when the browser asks.
open-recent-file-moved = Could not reopen { $name }: the file is not where it was ({ $why }). Open it again from your disk.
open-address-label = Or open one from a web address
open-address-open = Open address
open-address-not-web = "{ $address }" is not a web address: enter one that starts with https:// (or http://), the address of a SQLite file on a web server.
open-datasette-label = Or ask a Datasette server
open-datasette-open = Open
open-datasette-form-problem = { $why }.
open-datasette-token = API token (private servers)
open-datasette-token-label = Datasette API token
open-datasette-token-held = a token is held for this server
open-datasette-remember = Remember on this device
open-datasette-token-hint = Sent only to that server, never put in an address, a transcript or a recording. Kept in this tab's memory unless remembered.
open-datasette-forget-tokens = Forget saved tokens

## The question and the answer (ui/chat/*, markdown_view, tokens; present/transcript; llm and conversation errors)
# (asking, the transcript, replay, candidates, kept conversations)

## Settings and the model (ui/settings, demo_endpoint, number_input, golden_run, embed; present/demo_endpoint; settings/*)
# (the model, keys, limits, the demo's endpoint, checking the model)

## The data described (ui/schema_view, hiding, knowledge; present/hiding; knowledge's errors)
# (the schema, hidden columns, notes about the data)

## The data queried (ui/console, result_table, chart_view, ledger_view, table_scroll, value_index, follow, task; present/ledger, value_index, errors, chart, csv, time; count)
# (the console, results, charts, the ledger, a database's errors)
