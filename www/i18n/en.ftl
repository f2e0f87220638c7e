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
open-remote-set-cors = The server must allow other sites to read the file: it must send Access-Control-Allow-Origin (* or this page's origin) and, for reading in parts, Access-Control-Allow-Headers: Range and Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified.
open-remote-set-ranges = nginx and Apache answer Range requests for plain static files, but not for a file they compress on the fly (turn gzip off for .db files; nginx behind a proxy: proxy_force_ranges on) or generate. S3, R2 and CloudFront answer them (the bucket's CORS rules must allow the Range header, and CloudFront must forward it). GitHub Pages and Netlify answer them for files they serve as they are. Python's http.server does not.
open-remote-set-expose = The server must send Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified. nginx: add_header Access-Control-Expose-Headers "Content-Range, Content-Length, ETag, Last-Modified" always; Apache: Header set Access-Control-Expose-Headers "..."; S3 and R2: ExposeHeaders in the bucket's CORS rules, with AllowedHeaders: Range; CloudFront: a response headers policy that exposes them; Netlify: a _headers file. GitHub Pages lets no header be set: serve askdb from the same site as the file, or the file from another host.
open-remote-set-static = Serve the file as a plain static file (not generated, not compressed on the fly) from a host that supports HTTP Range requests fully: each answer to a Range request must be 206 with Content-Range: bytes START-END/LENGTH.
open-remote-set-validator = Static hosts send ETag or Last-Modified with every file (nginx, Apache, S3, R2, CloudFront, GitHub Pages, Netlify send both); a proxy, a function or a script that serves the file must pass them on, and on another site the ETag must be exposed (Access-Control-Expose-Headers: ETag; Last-Modified needs none).
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
open-import-no-header-value = The first row was read as data, not as a header, because it holds "{ $value }" in column { $column }, which reads as data; the columns are named { $names }
open-import-no-header-repeated = The first row was read as data, not as a header, because "{ $value }" appears in it twice; the columns are named { $names }
open-import-no-header-blank = The first row was read as data, not as a header, because it is empty; the columns are named { $names }
open-import-columns = Columns: { $columns }.
open-import-leading-zeros = { $column } stays { $type }: values such as { $example } have leading zeros that a number would lose.
open-import-booleans = { $column } holds { $booleans }, stored as { $stored }.
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
open-import-error-unrecognised = { $file } cannot be imported: { $why }. askdb imports CSV, TSV, delimited { $txt }, JSON (an array of objects or one object per line) and .xlsx files
open-import-not-data-zip = it is a { $zip } archive; of those only Excel workbooks (.xlsx) are imported
open-import-not-data-xls = it is an old Excel workbook ({ $xls }): save it as .xlsx (Excel Workbook) and open that
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
open-header-empty = the file is empty
open-header-too-short = the file has only { $bytes } bytes; a SQLite database has at least { $least }
open-header-text = it does not start with the SQLite header; it looks like a text file (CSV, SQL or JSON?)
open-header-not-sqlite = it does not start with the SQLite header ("{ $magic }")
open-header-page-size = the header names an invalid page size ({ $size })
open-header-truncated = the file is truncated: its header describes { $expected } bytes but it has { $bytes }
open-header-part-page = the file is truncated: { $bytes } bytes is not a whole number of { $page_size }-byte pages
open-datasette-no-scheme = no http:// or https://
open-datasette-not-http = only http and https addresses
open-datasette-no-host = no host
open-datasette-credentials = it carries a user name or password; enter a token apart instead
open-datasette-host-space = the host has a space or a backslash
open-datasette-server-page = it is one of the server's own pages, not a database
open-datasette-no-database = no database named after the host
open-part-not-loaded = A part of askdb could not be downloaded (is the connection down, or was the page updated since it was loaded?). Try again, or reload the page.
part-try-again = Try again
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
open-schema-unread = it opened, but its schema could not be read ({ $why })
open-download-unreachable = the download from { $address } failed ({ $why }). Either the server could not be reached, or it does not allow cross-origin requests: a database on another site opens here only if its server sends the header { $header }
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
# Why a question got no answer (present/failure): clauses that start in lower case, as the
# chat puts them after "No answer:" or makes a sentence of them.
chat-failure-step-limit = no answer after { $steps } steps: ask a narrower question, or allow more steps in the settings
chat-failure-deadline = no answer within { $time }: ask a simpler question, or allow more time in the settings
chat-failure-cancelled = stopped: the question was cancelled
chat-failure-llm = the model could not answer: { $why }
chat-failure-empty-reply = the model sent empty replies: ask again, or choose another model
chat-llm-unauthorized = the API key was refused (HTTP { $status }): check the key in Settings, and that it may use this model
chat-llm-not-found = model or URL not found (HTTP 404): check the model name and base URL
chat-llm-rate-limited = the provider is rate limiting requests (HTTP 429): askdb retries a few times by itself; if this goes on, wait a minute or check your plan's limits
chat-llm-rate-limited-wait = the provider is rate limiting requests (HTTP 429) and asks to wait { $seconds } s: askdb retries a few times by itself; if this goes on, wait a minute or check your plan's limits
chat-llm-server = the provider is overloaded or failing (HTTP { $status }): askdb retries a few times by itself; if this goes on, try again later
chat-llm-bad-request = the provider refused the request (HTTP { $status })
# After a clause, what the server said (its own words, untranslated).
chat-llm-server-said = . The server said: { $message }
chat-llm-network = could not reach { $address } ({ $message }): you may be offline, the URL may be wrong, the server may not be running, or it refused this page ({ $cors })
# $variable: OLLAMA_ORIGINS; $command: the command that starts Ollama with it; $cors: CORS.
chat-llm-network-ollama = . Ollama answers web pages only when started with { $variable } set, e.g. `{ $command }` (or this page's origin instead of *)
chat-llm-network-local = . For LM Studio, enable { $cors } in its server settings; for Ollama, set { $variable }
chat-llm-malformed = the server's answer was not in the expected format: { $message }
chat-proxy-limit = the demo's endpoint has reached one of its limits (HTTP { $status }, { $reason })
chat-proxy-unreachable = the demo's endpoint could not reach its model (HTTP { $status }, { $reason })
chat-proxy-upstream-key = the demo's endpoint could not use its model: the provider turned the demo's author away (HTTP { $status }, { $reason }); only the author can fix this
chat-proxy-refused = the demo's endpoint refused this question (HTTP { $status }, { $reason })
chat-proxy-said = : { $message }
chat-demo-unreachable = the demo's endpoint could not be reached ({ $message }): you may be offline, or the endpoint is down or does not serve this page
chat-demo-refused = the demo's endpoint refused this question (HTTP { $status })
chat-demo-not-found = the demo's endpoint does not know this address or model (HTTP 404)
chat-demo-busy = the demo's endpoint is busy (HTTP 429): askdb retries a few times by itself; if this goes on, try again in a minute
chat-demo-failing = the demo's endpoint is failing (HTTP { $status }): askdb retries a few times by itself; if this goes on, try again later
chat-demo-malformed = the demo's endpoint's answer was not in the expected format: { $message }
# The transcript of a question (present/transcript).
chat-knowledge-summary = Knowledge: { $notes ->
        [one] { $notes } note
       *[other] { $notes } notes
    }, { $terms ->
        [one] { $terms } term
       *[other] { $terms } terms
    }, { $examples ->
        [one] { $examples } example
       *[other] { $examples } examples
    } · { $size } of { $budget } KB
chat-knowledge-left-out = { $count } left out to fit
chat-knowledge-term = Term: { $term }
chat-knowledge-example = Example ({ $score }): { $question }
chat-schema-tables-and-values = Schema: { $tables ->
        [one] { $tables } table
       *[other] { $tables } tables
    } picked for this question, { $values ->
        [one] { $values } value
       *[other] { $values } values
    } it names · { $size } KB
chat-schema-tables = Schema: { $tables ->
        [one] { $tables } table
       *[other] { $tables } tables
    } picked for this question · { $size } KB
chat-schema-values = Schema: { $values ->
        [one] { $values } value
       *[other] { $values } values
    } it names · { $size } KB
chat-schema-table = { $table }: { $why }
chat-schema-value = Value: { $value }
chat-schema-value-index = Value index: { $coverage }
# Why a table was picked for a question.
chat-reason-name = the word '{ $word }'
chat-reason-column = column { $column } ('{ $word }')
chat-reason-note = a note ('{ $word }')
chat-reason-term = the glossary term '{ $term }'
chat-reason-example = a worked example like this question
chat-reason-value = the value '{ $value }' in { $column }
chat-reason-path = on the join path from { $from } to { $to }
# What a question read from a database read on demand.
chat-reads-from-database = read { $size } in { $requests ->
        [one] { $requests } read
       *[other] { $requests } reads
    } from the database
chat-status-starting = Starting…
chat-status-running = Running { $tool }…
chat-status-waiting = Step { $step } of { $steps }: waiting for the model…
chat-status-retry-wait = Waiting { $wait } before retry { $attempt }…
chat-retry = Retry { $attempt } in { $wait }, because { $why }
chat-status-calling = Step { $step }: the model is calling { $tool }…
chat-status-writing = Step { $step }: the model is writing…
chat-stopped = Stopped.
chat-model-time = The model replied in { $time }; first token after { $first }.
# $label: Ollama's mark (tools); $program, $server, $flag: llama.cpp, llama-server, --jinja; $readme, $section: README and its section.
chat-tools-never-called = The model answered without calling any tool, even when asked to, so no query checked this answer. If it does so for every question, the model or its chat template has no tool calling: choose a model that supports tools (Ollama marks them "{ $label }"), start { $program }'s { $server } with { $flag } so that its chat template offers the tools, or in LM Studio load a model with tool use. { $readme }: "{ $section }".
chat-nudge-no-final-answer = The model answered without { $tool }; it was asked to give its answer with the SQL behind it.
# (The English says "The model empty reply" as the page always has.)
chat-nudge-empty-reply = The model empty reply; it was asked to give its answer with the SQL behind it.
chat-nudge-unreadable-call = The model wrote a tool call as text that could not be read ({ $problem }); it was asked to give its answer with the SQL behind it.
# Between the items of a list.
chat-list-separator = { ", " }
chat-calls-in-text = The model wrote { $count ->
        [one] a tool call
       *[other] { $count } tool calls
    } as text ({ $forms }) instead of calling the tools; askdb read and ran { $count ->
        [one] it
       *[other] them
    }.
chat-calls-in-text-repaired = The model wrote { $count ->
        [one] a tool call
       *[other] { $count } tool calls
    } as text ({ $forms }) instead of calling the tools; askdb read and ran { $count ->
        [one] it
       *[other] them
    } (repaired: { $repairs }).
# $tag, $token: how the model wrote its calls (<tool_call>, [TOOL_CALLS]), as it wrote them.
chat-form-tags = { $tag } tags
chat-form-token = { $token }
chat-form-bare-json = a JSON object
chat-repair-single-quotes = single quotes made double
chat-repair-trailing-comma = a trailing comma left out
chat-repair-arguments-as-string = arguments given as a string read as an object
chat-step-running = running…
chat-step-tables = { $count ->
        [one] { $count } table
       *[other] { $count } tables
    }
chat-step-columns = { $count ->
        [one] { $count } column
       *[other] { $count } columns
    }
chat-step-warnings = { $count ->
        [one] { $count } warning
       *[other] { $count } warnings
    }
chat-step-answer-with-sql = answer with SQL
chat-step-answer-without-evidence = answer without evidence
chat-step-error = error
chat-unverified-no-query = No query backs this answer: check it before relying on it.
chat-unverified-unchecked = Its SQL was not checked by the agent: check it before relying on it.
# A question's candidates (present/candidates, ui/chat/candidates).
chat-agreement-none = None of { $count ->
        [one] { $count } candidate
       *[other] { $count } candidates
    } gave a result
chat-agreement-only-one = Only 1 of { $count } candidates gave a result{ $without ->
        [0] { "" }
       *[other] ; { $without } gave no result
    }
chat-agreement-agree = { $agreeing } of { $count } candidates agree{ $without ->
        [0] { "" }
       *[other] ; { $without } gave no result
    }
chat-agreement-disagree = The candidates disagree: { $with ->
        [one] { $with } candidate
       *[other] { $with } candidates
    } gave { $distinct } different results{ $without ->
        [0] { "" }
       *[other] ; { $without } gave no result
    }
chat-candidate-no-answer = no answer: { $why }
chat-candidate-no-sql = answered without SQL to check
chat-candidate-stopped = stopped before its SQL ran
chat-candidate-sql-failed = its SQL failed: { $error }
chat-approach-as-asked = as asked
chat-approach-in-parts = in parts
chat-approach-values-first = values first
chat-approach-join-paths = join paths
chat-approach-word-by-word = word by word
# A replayed conversation (present/replay).
chat-conversation-too-large = the file is { $bytes } bytes; a conversation file may be at most { $limit } bytes
chat-conversation-not-json = the file is neither a SQLite database nor a conversation saved by askdb (it is not valid JSON: { $message })
chat-conversation-cut-short = the conversation file is cut short (its JSON ends in the middle): save or download it again
# $field: the field the file lacks or has otherwise ("format"), as JSON writes it.
chat-conversation-no-format = this JSON file is not a conversation saved by askdb (it has no { $field })
chat-conversation-foreign-format = this JSON file is not a conversation saved by askdb (its { $field } is "{ $found }", not "{ $format }")
chat-conversation-wrong-version = this conversation is in the format "{ $found }"; this page reads "{ $format }" and "{ $candidates_format }"
chat-conversation-damaged = the conversation file is damaged: { $message }
# $what: what is wrong, as the reader of files says it (English).
chat-conversation-invalid = the conversation file { $what }
chat-replay-database-unidentified = The open database cannot be compared with the one the conversation was recorded on ({ $name }). Results may differ from the recording; each step that differs is marked.
chat-replay-other-database = This is not the database the conversation was recorded on: it was recorded on { $recorded } ({ $recorded_size } bytes, { $recorded_identity }), and { $open } ({ $open_size } bytes, { $open_identity }) is open. Results may differ from the recording; each step that differs is marked.
chat-replay-database-cannot-tell = The open database cannot be compared with the one the conversation was recorded on, one was read whole and the other on demand: it was recorded on { $recorded } ({ $recorded_size } bytes, { $recorded_identity }), and { $open } ({ $open_size } bytes, { $open_identity }) is open. Results may differ from the recording; each step that differs is marked.
chat-replay-difference = The live result of { $tool } differs from the recording.
chat-replay-difference-not-recorded = The recording has no result for this { $tool } call.
chat-replay-difference-not-made = This { $tool } call was recorded but not made now.
chat-replay-candidates-otherwise = the candidates were recorded as "{ $before }" ({ $before_groups }); now: "{ $after }" ({ $after_groups })
chat-replay-groups = candidates { $groups }
chat-replay-no-group = no group
# The chat (ui/chat).
chat-heading = Ask the database
chat-earlier = Earlier in this conversation
chat-replayed-badge = replayed
chat-earlier-no-answer = No answer: { $why }
chat-announce-answer = Answer: { $answer }
chat-question-label = Your question
chat-question-placeholder = Ask about the data, in any language. For example: which category sold most in 2024?
chat-ask = Ask
chat-asking = Asking…
chat-stop = Stop
chat-new-conversation = New conversation
chat-new-conversation-title = Forget the questions so far: the next one starts afresh
chat-save-conversation = Save conversation
chat-save-conversation-title = Download the questions, the model's turns and the answers as a file that replays without a key
chat-keys-hint = Enter asks, Shift+Enter starts a new line.
# $cost: tokens, time and what was read, as a list.
chat-usage-question = This question: { $cost }
chat-usage-so-far = So far: { $cost }
chat-usage-session = Session: { $questions ->
        [one] { $questions } question
       *[other] { $questions } questions
    }, { $tokens }, { $time }
chat-answer = Answer
chat-unverified-badge = unverified
chat-answer-notes-label = Notes
chat-answer-notes = Notes and caveats
chat-answer-sql = The SQL behind it
chat-answer-to-console = Open in the console
chat-answer-rerun = Its result, run again by this page:
chat-answer-bound-values = Bound values, never written into the SQL:
chat-answer-table = Table in the answer
chat-transcript = What the agent did
chat-note-model = The model:{ " " }
chat-note-unfinished = Written before the stop:{ " " }
chat-step-recorded = What the recording says
chat-table-rows = { $rows }.
chat-table-columns = Columns:
chat-cross-query = Query { $name }
chat-values = Values:
chat-first-rows = First rows of the result
chat-diagnostics = Warnings and checks
chat-candidates-stopped-said = Stopped. { $summary }.
chat-candidates-agreed-said = { $summary }. Answer: { $answer }
chat-candidates-split-said = { $summary }: choose the result that answers the question.
chat-candidates-said = { $summary }.
chat-candidate-working = working…
chat-candidate-gave-result = gave a result
chat-candidate-heading = Candidate { $number } of { $count } ({ $approach }):{ " " }
chat-candidates-steps = Each candidate's steps
chat-candidates-stopped = Stopped. { $summary }
chat-candidates-choose = No result is taken for you. Choose the one that answers your question, or rephrase the question.
chat-candidates-chosen = Candidate { $number }'s result was chosen: it is the answer below, and what a follow-up question builds on.
chat-candidate-without = Candidate { $number }: { $why }
chat-candidates-verdict = How the candidates agree
chat-candidates-recorded-otherwise = Not as recorded: { $why }.
chat-candidate-given = { $given } of { $count } candidates gave this ({ $given ->
        [one] candidate
       *[other] candidates
    } { $numbers })
chat-candidate-chosen = Chosen
chat-candidate-use = Use this answer
# Replaying a saved conversation (ui/chat/replay).
chat-replay-speed-slow = slow
chat-replay-speed-normal = normal
chat-replay-speed-fast = fast
chat-replay-question-running = A question is running: stop it, then open the conversation again.
chat-replay-open-unidentified = The open database could not be identified here (its SHA-256 could not be computed), so it cannot be compared with the recorded one: results may differ.
chat-replay-pending = A saved conversation is ready to replay: open the database it was recorded on ({ $name }).
chat-replay-label = Replay
chat-replay-title = Replay of a recorded conversation
chat-replay-model = model
chat-replay-recorded = recorded
chat-replay-how = The model's turns come from the file and no model is called; every query runs live on the open database.
chat-replay-differences = { $count ->
        [one] { $count } tool result differs from the recording: marked at its step.
       *[other] { $count } tool results differ from the recording: marked at their steps.
    }
chat-replay-watch = Watch the recorded conversation
chat-replay-speed = Speed
chat-replay-all = Show all at once
chat-replay-playing = Playing { $questions ->
        [one] { $questions } question
       *[other] { $questions } questions
    }…
chat-replay-stopped = Replay stopped.
chat-replay-finished-live = Replay finished ({ $questions ->
        [one] { $questions } question
       *[other] { $questions } questions
    }). Ask a question of your own below.
chat-replay-finished = Replay finished ({ $questions ->
        [one] { $questions } question
       *[other] { $questions } questions
    }). Ask a follow-up with your own model in Settings.
# Conversations kept in this browser (ui/chat/kept).
chat-kept-heading = Conversations kept on this database ({ $count })
chat-kept-line = { $questions ->
        [one] { $questions } question
       *[other] { $questions } questions
    } · { $ago }
chat-kept-forget = Forget
chat-kept-forget-label = Forget the conversation { $title }
chat-kept-not-kept = This conversation is not kept in this browser: { $why }. Save it as a file to keep it.
chat-kept-unreadable = The kept conversation "{ $title }" cannot be opened: { $why }.
chat-kept-not-forgotten = The conversation could not be forgotten: { $why }.
# Saving a conversation (ui/chat/save).
chat-save-not-replayable = This conversation cannot be saved as a replayable file: { $why }.
chat-save-browser-refused = The browser did not save the file ({ $why }).
chat-save-nothing = Ask a question first: there is nothing to save yet.
chat-save-unidentified = The database could not be identified here (its SHA-256 could not be computed), so a saved conversation could not name it.
# How the page is set up, beside the question box (ui/chat/setup_line).
chat-setup-label = How this page is set up
chat-setup-live-demo = Live demo
chat-setup-reading = Asking the demo's endpoint which model answers here…
chat-setup-said = : { $said }
chat-setup-safe-mode = Safe mode
chat-setup-safe-title = The model gets a query tool that names tables, fields and filters; the page writes the SQL, with the values bound.
chat-setup-safe = : a question asked here goes to a model that writes no SQL; it asks structured queries.
chat-setup-safe-by-address = { " " }(set by this page's address): a question asked here goes to a model that writes no SQL; it asks structured queries.
chat-setup-replay-label = Replay
chat-setup-replay = : the answer below is played from a recording; no model is asked, and every query runs here, live.
chat-setup-replay-safe = { " " }It was recorded in safe mode.
chat-setup-replay-sql = { " " }It was recorded with the model writing SQL.
# An image in the model's answer, never fetched: its words in its place (present/markdown).
chat-markdown-image = [image]
chat-markdown-image-alt = [image: { $alt }]

## Settings and the model (ui/settings, demo_endpoint, number_input, golden_run, embed; present/demo_endpoint; settings/*)
# (the model, keys, limits, the demo's endpoint, checking the model)
# The settings panel (ui/settings.rs)
settings-button = Settings
settings-panel-label = Model settings
settings-model = Model
settings-address-ignored = From the page address, not used:
settings-query-deadline = Each query may run { $deadline } (the Deadline beside the SQL console).
settings-storage-refused = This browser did not allow saving (private mode or storage turned off): the settings last until the tab closes.
settings-saved-where = Settings other than the key are saved in this browser. Questions, schema and query results go to the model's address above, and nowhere else.
settings-demo-endpoint-note = This demo's questions go to its own endpoint, with no key of yours. Choose a provider, model or key here and your own model answers instead, for the rest of this visit.
settings-base-url-kept = { $why }; still using { $url }
settings-provider = Provider
settings-provider-openai = OpenAI or compatible
settings-caching-by-itself = { $provider } caches a repeated prompt start by itself (where it supports that); askdb keeps each step's start unchanged.
settings-caching-marked = askdb marks the tools, the system prompt and the conversation for { $provider }'s prompt cache: each step reads them back at a discount.
settings-presets-label = Presets for OpenAI-compatible servers
settings-presets-lead = OpenAI-compatible:{ " " }
settings-preset-title = OpenAI format at { $url }
settings-base-url = Base URL
settings-model-placeholder = e.g. { $example }
settings-model-placeholder-listed = e.g. the model id { $server } shows
settings-api-key = API key
settings-api-key-placeholder = not needed for Ollama or LM Studio
settings-key-kept-in-browser = Kept in this browser's storage; sent only to { $endpoint }.
settings-key-kept-in-tab = Kept in this tab's memory only; sent only to { $endpoint }.
settings-key-per-address = { " " }Each address has its own key.
settings-remember-key = Remember on this device
settings-forget-keys = Forget saved keys
settings-temperature = Temperature
settings-step-limit = Step limit
settings-candidates = Candidates
settings-candidates-title = Each question is answered this many times, each way on its own; the answer says whether the results agree
settings-stream = Stream replies (show each reply as it is written)
settings-stream-title = Off: each reply comes whole, for a server or proxy that cannot stream
settings-read-budget = Read budget per question
settings-read-budget-title = What one question may read from a database on a web server (its queries, checks and the answer's re-run); 0: no budget
settings-read-budget-hint = On a database read from a web server, a question stops a query that would read more than { $budget } in all (default { $default } MB; 0: no budget). ?budget=MB sets it from a link.
settings-read-budget-none = On a database read from a web server, a question may read as much as it needs (0: no budget).
settings-safe-mode = Safe mode: the model cannot write SQL
settings-safe-mode-hint = It picks a table, fields, filters and totals from a list made from this database; the page writes the SQL, with the values kept apart from it.

# A typed setting that is not taken (settings/mod.rs, settings/demo_endpoint.rs)
settings-base-url-not-web = the base URL is not a web address
settings-base-url-scheme = the base URL must start with http:// or https://
settings-base-url-no-host = the base URL has no host
settings-model-invalid = that is not a model name
settings-endpoint-empty = the endpoint is empty
settings-endpoint-not-web = the endpoint is not a web address
settings-endpoint-scheme = the endpoint must start with http:// or https://
settings-endpoint-no-host = the endpoint has no host

# What the page's address asked for and was not used (settings/address.rs); the parameter's
# name and what it was given stay as they are
settings-address-provider = provider "{ $value }" is not one of { $providers }
settings-address-base-url = base_url: { $why }
settings-address-model = model: { $why }
settings-address-mode-sql = mode=sql: a link can turn safe mode on, not off; untick it in Settings
settings-address-mode = mode "{ $value }" is not safe or sql
settings-address-candidates = candidates "{ $value }" is not a whole number from 1 to { $most }
settings-address-budget = budget "{ $value }" is not a whole number of MB from 0 (no budget) to { $most }
settings-address-endpoint = endpoint: { $why }
settings-address-key = an API key in the address is never used: enter it in Settings (and remove it from the link)
settings-address-embed = embed "{ $value }" is not 1 or 0
settings-address-theme = theme "{ $value }" is not light or dark
settings-address-notes = notes "{ $value }": a notes file is read from this page's site or from an https address

# A demo's endpoint (settings/demo_endpoint.rs, ui/demo_endpoint.rs, present/demo_endpoint.rs):
# why its card cannot be read, who answers, and a limit that ran out
settings-demo-card-too-large = its card is larger than { $kb } KB
settings-demo-card-not-json = its card is not the JSON an askdb-proxy sends
settings-demo-card-format = its card is of format { $format }, which this page does not read
settings-demo-card-provider = its card names the provider "{ $provider }", not one of { $providers }
settings-demo-card-no-model = its card names no model
settings-demo-card-unreadable = its card could not be read
settings-demo-no-answer = no answer: you may be offline, or it is down or does not serve this page
# Who pays, when the card does not say
settings-demo-paid-by-author = the author
settings-demo-still-asking = The demo's endpoint is still being asked which model answers here: ask again in a moment.
settings-demo-answered-by = Questions here are answered by { $model }, paid for by { $paid_by }
settings-demo-answered-by-left = Questions here are answered by { $model }, paid for by { $paid_by } · { $left ->
        [0] no model calls left today
        [one] { $left } model call left today
       *[other] { $left } model calls left today
    }
settings-demo-unreachable = This demo's endpoint could not be reached ({ $why }): use your own model (Settings).
settings-demo-unreachable-recording = This demo's endpoint could not be reached ({ $why }): watch the recorded conversation, or use your own model (Settings).
settings-demo-readers-own = You chose a model in Settings: your questions go to it, not to this demo's endpoint.
# $when is one of the settings-demo-when-… phrases below
settings-demo-limit-burst = You have asked this demo many questions in a short time: it answers again { $when }.
settings-demo-limit-reader-day = You have asked all the questions this demo answers for one reader a day: more come { $when }.
settings-demo-limit-demo-requests = This demo has answered all the questions its author pays for in a day: more come { $when }.
settings-demo-limit-demo-tokens = This demo has used all the model time its author pays for in a day: more comes { $when }.
settings-demo-limit-all-demos = The author's model budget for all their demos is used up for today: more comes { $when }.
settings-demo-limit-other = This demo's endpoint has reached its limit ({ $reason }): it answers again { $when }.
settings-demo-when-today = at { $clock } (your time)
settings-demo-when-tomorrow = tomorrow at { $clock } (your time)
settings-demo-when-on = on { $date } at { $clock } (your time)
settings-demo-when-later = later

# The compact page for documentation (ui/embed.rs)
embed-more = More of askdb
embed-schema = Schema
embed-console = SQL console
embed-open-full = Open in askdb ↗

# Check the model: the golden run (ui/golden_run, eval/said.rs)
golden-button-title = Ask this database's golden questions and compare the model's results with the expected ones
golden-check-the-model = Check the model
golden-intro = Asks this database's { $count ->
        [one] { $count } golden question
       *[other] { $count } golden questions
    } of the chosen model, each in a fresh conversation, and compares the result of the model's SQL with the expected SQL's. The model never sees the expected SQL.
golden-checking = Checking…
golden-run = Run the questions
golden-stop = Stop
golden-download-markdown = Download report (Markdown)
golden-download-json = Download report (JSON)
golden-not-saved = The browser did not save the file ({ $why }).
golden-asking = Asking question { $number } of { $total }…
# $stopped is yes or no
golden-summary = { $passed } of { $total } correct, { $tokens } tokens{ $broken ->
        [0] { "" }
        [one] , 1 check broken
       *[other] , { $broken } checks broken
    }{ $stopped ->
        [yes] , stopped
       *[other] { "" }
    }
golden-summary-took = { $summary } in { $took }
golden-calibration-label = Whether agreement predicts correctness
golden-calibration-agreed = The agreed answer (the result more candidates gave than any other): { $right } of { $asked } correct. Each question's result below is its first candidate's.
golden-calibration-table = Calibration
golden-column-agreeing = Candidates agreeing
golden-column-questions = Questions
golden-column-agreed-right = Agreed answer right
golden-column-share-right = Share right
golden-agreement = { $agreeing ->
        [0] none gave a result
        [1] 1 of { $candidates } (no two agree)
       *[other] { $agreeing } of { $candidates } agree
    }
golden-cost = { $steps ->
        [one] { $steps } step
       *[other] { $steps } steps
    } · { $tokens } tokens · { $took }
golden-expected-sql = Expected SQL
golden-model-sql = The model's SQL
golden-no-sql = No SQL.
golden-outcome-pass = pass
golden-outcome-fail = fail
golden-outcome-no-answer = no answer
golden-outcome-no-sql = no SQL
golden-outcome-broken = check broken
golden-why-no-sql = answered without SQL to check
golden-why-expected-failed = the expected SQL failed: { $why }
golden-why-reads-knowledge = the model's SQL reads { $table }, where the golden questions are kept
golden-why-model-sql-failed = the model's SQL failed: { $error }
golden-why-model-sql-did-not-run = the model's SQL did not run
golden-why-too-many = it returns more than { $most } rows: too many to compare
# How the model's result differs from the expected one; values are the data's
golden-differs-columns = { $expected ->
        [one] { $expected } column
       *[other] { $expected } columns
    } expected, { $returned } returned
# $expected is a golden-rows phrase, $returned a golden-count one
golden-differs-row-count = { $expected } expected, { $returned } returned
golden-differs-row = { $at ->
        [position] row { $position } differs: { $detail }
        [one] one row differs: { $detail }
        [many] { $differing } rows differ, for example: { $detail }
       *[single] { $detail }
    }
golden-differs-value = { $column } ({ $name }): { $expected } expected, { $returned } returned
golden-differs-whole = { $expected } expected, { $returned } returned
golden-column = { $number ->
        [1] first column
        [2] second column
        [3] third column
        [4] fourth column
        [5] fifth column
        [6] sixth column
        [7] seventh column
        [8] eighth column
        [9] ninth column
        [10] tenth column
       *[other] column { $number }
    }
golden-differs-order = the same rows in another order (from row { $position }), where the expected SQL orders them
golden-differs-too-many = both return more than { $rows ->
        [one] { $rows } row
       *[other] { $rows } rows
    }: too many to compare
golden-rows = { $kind ->
        [more] more than { $count ->
            [one] { $count } row
           *[other] { $count } rows
        }
        [about] about { $count ->
            [one] { $count } row
           *[other] { $count } rows
        }
       *[exact] { $count ->
            [one] { $count } row
           *[other] { $count } rows
        }
    }
golden-count = { $kind ->
        [more] more than { $count }
        [about] about { $count }
       *[exact] { $count }
    }

## The data described (ui/schema_view, hiding, knowledge; present/hiding; knowledge's errors)
# (the schema, hidden columns, notes about the data)
# The schema panel (ui/schema_view.rs)
schema-heading = Schema
schema-no-tables = This database has no tables.
schema-badge-view = view
schema-query-table = Query this table
schema-primary-key = PK
schema-primary-key-title = primary key
schema-foreign-key-title = foreign key
schema-not-null = not null
schema-counted-now = counted now
schema-count-failed = could not count
schema-count-failed-title = Counting failed: { $why }
schema-counting = counting…
schema-count-rows = Count rows
schema-counting-button = Counting…
schema-count-rows-title = Counts every row of this table (count(*)): on a large table this reads all of it
schema-rows-estimated = { $rows } (estimated)
schema-rows-estimated-title = Estimated from SQLite's statistics (sqlite_stat1, written by ANALYZE): it may be out of date. "Count rows" counts them.
schema-rows-stopped-title = Counting stopped there, so that opening stays quick. "Count rows" counts them all.
schema-rows-not-counted = rows not counted
schema-rows-not-counted-title = Not counted when the database opened. "Count rows" counts them.

# Hiding tables and columns from the model (ui/schema_view.rs, ui/hiding, present/hiding.rs)
hide-table-title = { $kind ->
    [view] The model's queries run on a copy without this view; the console still sees it
   *[other] The model's queries run on a copy without this table; the console still sees it
}
hide-table-show = Show to the model
hide-table-hide = Hide from the model
hide-badge = hidden
hide-badge-title = hidden from the model
hide-left-out = not for the model
hide-left-out-title = The model does not see this: it reads something hidden from the model, or askdb's notes
hide-column-show = show
hide-column-hide = hide
hide-column-show-label = Show { $column } from the model
hide-column-hide-label = Hide { $column } from the model
hide-preparing-status = Preparing what the model may see
hide-not-kept = This choice lasts until the tab closes: { $why }.
hide-not-saved = This browser did not allow saving (private mode or storage turned off): the settings last until the tab closes.
hide-unresolved-label = Not hidden (from the address):{ " " }
hide-reason-separator = ;{ " " }
hide-unresolved-not-found = { $name }: this database has no such table or column
hide-unresolved-view-column = { $name }: a view's column cannot be hidden alone; hide the view, or the table's column it shows
hide-line-label = Hidden from the model:{ " " }
hide-line-title = The model's queries run on a copy of the database without these; the console still sees everything. Changing this starts a new conversation.
hide-line-preparing = { " " }(making the copy the model sees…)
hide-line-failed = { " " }(the copy could not be made: { $why })
hide-line-refused = { " " }(the model cannot be asked: { $why })
hide-no-copy-on-demand = this file is read on demand (files of { $mib } MiB and more are), not copied into memory, and hiding works by a copy without what is hidden
hide-no-copy-from-server = this database is read on demand from its server, not copied into memory, and hiding works by a copy without what is hidden
hide-no-copy-on-server = the model's queries run on the Datasette server, on the whole database, and this page cannot take tables or columns away from a server: serve a copy without them (drop them from a copy of the file with sqlite-utils or the sqlite3 shell) and open that instead
hide-refusal = { $why }; { $hidden } must be hidden from the model

# Notes about the data (ui/knowledge, knowledge::sidecar)
notes-reading-status = Reading the notes
notes-not-kept = Your notes last until the tab closes: this database cannot be told from another here ({ $why }).
notes-read-failed = The notes inside this database could not be read ({ $why }); it is open all the same.
notes-file-not-utf8 = the notes file is not UTF-8 text
notes-not-saved = This browser did not allow saving (private mode or storage turned off): the settings last until the tab closes.
notes-file-too-large = the notes file has { $bytes } bytes; a notes file may have at most { $limit_mib } MiB ({ $limit_bytes } bytes)
notes-file-not-json = the notes file is not valid JSON ({ $message }): export it from askdb again, or fix it as docs/knowledge-format.md describes
notes-file-cut-short = the notes file is cut short (its JSON ends in the middle): save or download it again
notes-file-not-notes = this JSON file is not an askdb notes file (it has no "format": "{ $format }")
notes-file-wrong-version = this notes file is in the format "{ $found }"; this page reads "{ $format }"
notes-file-damaged = the notes file is damaged: { $message }
notes-heading = Knowledge
notes-reading = Reading the notes in this database…
notes-none = No notes yet.
notes-list-separator = ,{ " " }
notes-count-notes = { $count ->
    [one] { $count } note
   *[other] { $count } notes
}
notes-count-terms = { $count ->
    [one] { $count } glossary term
   *[other] { $count } glossary terms
}
notes-count-examples = { $count ->
    [one] { $count } worked example
   *[other] { $count } worked examples
}
notes-count-golden = { $count ->
    [one] { $count } golden question
   *[other] { $count } golden questions
}
notes-tables-label = Knowledge kept in this database:{ " " }
notes-table-rows = { " " }({ $rows })
notes-tables-not-data = { " " }(not shown to the model as data)
notes-file-label = Notes file:{ " " }
notes-problems = { $count ->
    [one] { $count } problem with the notes
   *[other] { $count } problems with the notes
}
notes-export = Export notes file
notes-export-title = Everything above, as a notes file that ?notes= or “Open notes file” reads
notes-open = Open notes file…
notes-edit-label = Edit note on { $name }
notes-add-label = Add a note on { $name }
notes-edit-column = edit note
notes-add-column = + note
notes-edit-table = Edit note
notes-add-table = Add a note
notes-more = more
notes-less = less
notes-source-schema = schema comment
notes-source-database = in the database
notes-source-sidecar = notes file
notes-source-person = your note
notes-editor-label = Note on { $name }
notes-editor-placeholder = What it means, how it is used (Ctrl+Enter saves, Esc cancels)
notes-save = Save
notes-save-title = Saved empty, your note hides the one from the schema, database or notes file
notes-cancel = Cancel
notes-delete = Delete my note
notes-delete-title = Deletes your note; a note from the schema, the database or a notes file shows again

# Problems with the notes (knowledge::validate, tables, sidecar, hiding; ui/knowledge/panel.rs)
notes-problem-line = { $subject } ({ $source }): { $message }
notes-problem-notes = notes
notes-problem-glossary = glossary terms
notes-problem-examples = worked examples
notes-problem-golden-questions = golden questions
notes-problem-capped = at most { $limit } are kept; { $count } more were dropped
notes-problem-note-on-column = note on { $table }.{ $column }
notes-problem-note-on-table = note on { $table }
notes-problem-note-on-knowledge-table = is on one of askdb's own knowledge tables, which the model never sees: dropped
notes-problem-no-table = this database has no such table: dropped
notes-problem-no-table-near = this database has no such table (did you mean { $near }?): dropped
notes-problem-no-column = { $table } has no such column: dropped
notes-problem-no-column-near = { $table } has no such column (did you mean { $near }?): dropped
notes-problem-cut = { $part ->
    [term] the term was cut to { $limit } characters
    [meaning] the meaning was cut to { $limit } characters
    [question] the question was cut to { $limit } characters
   *[other] was cut to { $limit } characters
}
notes-problem-controls = { $part ->
    [term] the term had control characters, which were taken out
    [meaning] the meaning had control characters, which were taken out
    [question] the question had control characters, which were taken out
   *[other] had control characters, which were taken out
}
notes-problem-controls-cut = { $part ->
    [term] the term had control characters, which were taken out, and was cut to { $limit } characters
    [meaning] the meaning had control characters, which were taken out, and was cut to { $limit } characters
    [question] the question had control characters, which were taken out, and was cut to { $limit } characters
   *[other] had control characters, which were taken out, and was cut to { $limit } characters
}
notes-problem-term = glossary term "{ $term }"
notes-problem-term-empty = has no term or no meaning: dropped
notes-problem-example = example "{ $question }"
notes-problem-golden = golden question "{ $question }"
notes-problem-question-empty = has no question: dropped
notes-problem-also-capped = has { $count } other accepted answers; the first { $limit } are kept
notes-problem-sql-too-long = its SQL is { $bytes } bytes long; at most { $limit } are allowed: dropped
notes-problem-sql-refused = its SQL is refused: { $refusal }: dropped
notes-problem-sql-reads-knowledge = its SQL reads { $table }, one of askdb's own knowledge tables, which the model never sees: dropped
notes-problem-sql-reads-missing = its SQL reads { $table }, which this database does not have: dropped
notes-problem-sql-reads-missing-near = its SQL reads { $table }, which this database does not have (did you mean { $near }?): dropped
notes-problem-other-too-long = its other accepted answer { $number } is { $bytes } bytes long; at most { $limit } are allowed: that answer is dropped
notes-problem-other-refused = its other accepted answer { $number } is refused: { $refusal }: that answer is dropped
notes-problem-other-reads-knowledge = its other accepted answer { $number } reads { $table }, one of askdb's own knowledge tables, which the model never sees: that answer is dropped
notes-problem-other-reads-missing = its other accepted answer { $number } reads { $table }, which this database does not have: that answer is dropped
notes-problem-other-reads-missing-near = its other accepted answer { $number } reads { $table }, which this database does not have (did you mean { $near }?): that answer is dropped
notes-problem-row = row { $number } of { $table }
notes-problem-table = table { $table }
notes-problem-required-missing = a required value is NULL or empty: skipped
notes-problem-not-text = { $column } is a { $kind }, not text: skipped
notes-problem-also-not-list = also_accepted starts with [ but is not a JSON list of SQL texts: ignored
notes-problem-table-unreadable = cannot be read ({ $error }): skipped
notes-problem-missing-columns = has no column { $missing } (it needs { $required }): skipped
notes-problem-rows-capped = has { $rows } rows; the first { $limit } are read
notes-problem-file-list = "{ $list }"
notes-problem-entry-not-object = is not an object: skipped
notes-problem-entry-missing = has no "{ $key }": skipped
notes-problem-entry-not-text = has a "{ $key }" that is not text: skipped
notes-problem-entry-also-item = has an "also_accepted" entry that is not text: skipped
notes-problem-entry-also-list = has an "also_accepted" that is not a list of SQL: skipped
notes-problem-entries-capped = holds { $total } entries; the first { $limit } are read, the rest skipped
notes-problem-names-hidden = names { $name }, which is hidden from the model: not sent

## The data queried (ui/console, result_table, chart_view, ledger_view, table_scroll, value_index, follow, task; present/ledger, value_index, errors, chart, csv, time; count)
# (the console, results, charts, the ledger, a database's errors)

count-rows = { $count ->
    [one] { $count } row
   *[other] { $count } rows
}
count-rows-more-than = more than { $count ->
    [one] { $count } row
   *[other] { $count } rows
}
count-rows-about = about { $count ->
    [one] { $count } row
   *[other] { $count } rows
}
count-first-rows = first { $shown } of { $total ->
    [one] { $total } row
   *[other] { $total } rows
}
count-first-rows-more-than = first { $shown } of more than { $total ->
    [one] { $total } row
   *[other] { $total } rows
}
count-first-rows-about = first { $shown } of about { $total ->
    [one] { $total } row
   *[other] { $total } rows
}
count-tables = { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
}
count-tables-and-views = { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
}, { $views ->
    [one] { $views } view
   *[other] { $views } views
}
count-values-reading = Reading the values a question may name…
count-values-line = Values a question may name: { $coverage }
count-values-sentence = { $clause }.
count-values-not-read = { $sentence } Not read: { $tables }.
count-values-unreadable-table = { $table } ({ $why })
count-values-not-built = No values indexed yet
count-values-skipped = No values indexed: { $why }
count-values-skip-datasette = the database is on a Datasette server, where every query is a request to it
count-values-skip-no-statistics = the database has no statistics (sqlite_stat1, written by ANALYZE) to tell which columns hold few values, and finding out would mean reading its tables
count-values-skip-no-rows = the plan reads no rows of any table
count-values-skip-statistics-unreadable = SQLite's statistics (sqlite_stat1) could not be read ({ $error })
count-values-cut-short = { $clause }; then { $bound } stopped it at { $at } ({ $left } more not read)
count-values-bound-time = the time bound of { $ms } ms
count-values-bound-index-size = the index's size bound of { $size }
count-values-bound-read-budget = the read budget of { $size }
count-values-bound-seeks = the read budget, counted as { $seeks } seeks of { $bytes } bytes each (the database does not report its reads),
count-values-full = { $counts } indexed, every row read
count-values-sampled = { $counts } indexed; of { $tables } only the first { $rows } rows were read
count-values-indexed-only = { $counts } indexed from the columns that lead an index and that SQLite's statistics (sqlite_stat1) say hold few values, by { $seeks ->
    [one] { $seeks } seek
   *[other] { $seeks } seeks
} of their index ({ $read })
count-values-bytes-read = { $size } read
count-values-reads-unreported = the database does not report its reads
count-values-counts = { $values ->
    [one] { $values } value
   *[other] { $values } values
} of { $columns ->
    [one] { $columns } column
   *[other] { $columns } columns
} in { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
}
count-values-no-table = no table
count-values-names = { $names } and { $last }
count-values-names-and-more = { $names } and { $more } more
console-heading = SQL console
console-input-label = SQL query
console-run = Run
console-running = Running…
console-stop = Stop
console-keys-hint = Ctrl+Enter runs the query. Only reads are allowed.
console-stopped = The query was stopped.
console-row-cap = Row cap
console-deadline = Deadline
result-label = Query result
result-csv-title = The rows shown, as a CSV file (UTF-8)
result-csv-download = Download CSV
result-rows-label = Result rows
result-null-title = NULL (no value)
result-empty-text = empty text
result-blob = blob, { $bytes ->
    [one] { $bytes } byte
   *[other] { $bytes } bytes
}
result-show-less = show less
result-show-all = show all { $length } characters
chart-show-as = Show the result as
chart-table = Table
chart-chart = Chart
chart-description = { $kind ->
    [bar] Bar chart
   *[other] Line chart
} of { $series } by { $column }
ledger-heading = Sent to the model
ledger-nothing-yet = nothing yet
ledger-hint = Every request this page sent to a model, exactly as it went and as the answer came back. Your API key is never recorded here.
ledger-reads-heading = Read from the database
ledger-request-body = Request body
ledger-response-body = Response body
ledger-assembled-body = The streamed reply put together
ledger-download = Download
ledger-empty = (empty)
ledger-read-on-demand-file = { $size }, read on demand from the file
ledger-read-on-demand-server = { $size }, read on demand from { $host } (each read is an HTTP range request)
ledger-read-through-datasette = { $size }, asked through a Datasette server
ledger-downloaded-server-sends-whole = { $host } sends whole files; downloaded { $size }
ledger-downloaded-small = downloaded whole from { $host } ({ $size }; files under { $below } MiB are, so that everything works as for a file on this computer)
ledger-downloaded-asked = downloaded whole from { $host } ({ $size })
ledger-its-server = its server
ledger-question-read = “{ $question }” read { $reads }
ledger-questions-read = { $count ->
    [one] { $count } question
   *[other] { $count } questions
} read { $reads }
ledger-reads-memory = { $size } from memory
ledger-reads-file = { $size } in { $requests ->
    [one] { $requests } read
   *[other] { $requests } reads
} from the file
ledger-reads-server = { $size } in { $requests ->
    [one] { $requests } HTTP request
   *[other] { $requests } HTTP requests
} from the server
ledger-reads-datasette = { $size } in { $requests ->
    [one] { $requests } request
   *[other] { $requests } requests
} to the Datasette server, { $waited } ms
ledger-query-read = read { $size } in { $requests ->
    [one] { $requests } read
   *[other] { $requests } reads
}
ledger-server-requests = { $requests ->
    [one] { $requests } request
   *[other] { $requests } requests
} to the server ({ $size }, { $waited })
ledger-server-asked = Asked of the Datasette server since it opened: { $requests }.
ledger-tokens = { $input } in / { $output } out tokens
ledger-tokens-with-cache = { $input } in ({ $cache }) / { $output } out tokens
ledger-tokens-cached = { $count } cached
ledger-tokens-cache-written = { $count } written to cache
ledger-bytes-sent = { $count ->
    [one] { $count } byte
   *[other] { $count } bytes
} sent
ledger-bytes-received = { $count ->
    [one] { $count } byte
   *[other] { $count } bytes
} received
ledger-requests = { $count ->
    [one] { $count } request
   *[other] { $count } requests
}
ledger-waiting = waiting…
ledger-no-answer = no answer: { $reason }
ledger-stopped = stopped before the answer
error-sqlite = SQLite error: { $message }
error-timeout = stopped after { $after }: the query ran past its deadline. The database was reopened and is ready; raise the deadline to give a query longer.
error-too-large = the result is larger than { $megabytes } MB: select fewer columns or rows, shorten long values ({ $example }), or aggregate
error-crashed-reopened = the database engine stopped ({ $why }); it was restarted on the same data
error-crashed = the database engine stopped ({ $why })
error-unavailable = the SQLite engine could not start: { $why }
error-not-a-database = not a SQLite database: { $why }
error-unreadable = the browser could not read the file: { $why }
error-byte-budget = stopped: this query would read more from the database's server than the read budget of { $limit } allows ({ $read } read against it so far). Raise the budget (Settings: read budget per question), or ask for less: a filter on an indexed column reads a few pages, a whole-table count or sort reads them all
error-changed = the database changed: { $why }
error-read-failed = the database could not be read: { $why }
error-fenced = { $name } holds askdb's notes about the data (or reads them): the model may not read it on this database; the console may
error-not-open = no database is open
error-refused-empty = there is no SQL statement to run, only whitespace or comments
error-refused-too-long = this SQL is { $bytes } bytes long, over the limit of { $limit } bytes (100 KB): write a shorter query
error-refused-too-deep = this SQL nests parentheses { $depth } deep, over the limit of { $limit }: write it flatter (a { $with } clause instead of nested subqueries)
error-refused-several-statements = only a single read-only statement can run; this text has { $count } statements: run them one at a time
error-refused-not-read-only = only a single read-only statement can run; this is a { $kind }: write one { $select } (or { $with }, { $values }, { $explain }) instead
error-refused-not-read-only-an = only a single read-only statement can run; this is an { $kind }: write one { $select } (or { $with }, { $values }, { $explain }) instead
error-refused-function = the function { $name }() is not allowed: it could change or read things outside this database
error-refused-pragma = { $name } is not allowed: of SQLite's pragma functions only these plain reads can run: { $allowed }
error-refused-parameter = `{ $token }` is a parameter, and nothing here binds parameters: write the value itself into the SQL (e.g. 'Tokyo' or 42)
error-refused-unbound-parameters = the compiled statement does not match its { $values } values: { $reason }
error-refused-malformed = the SQL cannot be read: { $reason }
error-remote-unreachable = the server could not be reached ({ $why }): check the address, and that its cross-origin settings ({ $header }) let other sites read the file
error-remote-range-ignored = the server sends the whole file when asked for a part (it ignores the { $header } header), so the database cannot be read on demand
error-remote-status = the server answered { $status } to a request for the start of the file: check the address
error-remote-status-private = the server answered { $status } to a request for the start of the file: check the address and that the file is public
error-remote-header-hidden = the server answers range requests, but its cross-origin ({ $cors }) settings hide the { $header } header this page needs to read the file in parts
error-remote-header-missing = the server answered a part of the file without the { $header } header, so the file's length is unknown
error-remote-bad-content-range = the server's { $header } ({ $value }) is not one this page can read
error-remote-no-length = the server does not say the file's length (its { $header } ends in { $end })
error-remote-no-validator = the server sends neither an { $etag } nor a { $modified } header, so a new version of the file could not be told from the old one between two reads: it is not read in parts
error-datasette-bad-address = not the address of a database on a Datasette server ({ $why }): give it as https://host/dbname, the address of the database's page
error-datasette-no-cors = the Datasette server at { $server } answered, but does not let other pages read its answers: start it with { $flag }
error-datasette-unreachable = the Datasette server at { $server } could not be reached ({ $why }): check the address and that the server runs; a browser reads only a server started with { $flag }
error-datasette-time-limit = the Datasette server stopped the query at its time limit: { $message } A query that reads less (an indexed filter, fewer joins) finishes sooner
error-datasette-sql-not-allowed = the Datasette server does not run SQL on { $database } for this page ({ $status }): its { $setting } setting is off for this database, or it needs an API token. Ask its owner to allow SQL, or enter a token that may execute SQL
error-datasette-no-such-database = the Datasette server at { $server } has no database { $database }: check the last part of the address (its list is at { $server }/)
error-datasette-not-datasette = the address answered { $status } with { $what }, not Datasette's JSON: give the address of a database on a Datasette server (https://host/dbname)
error-datasette-redirect = the Datasette server sent the query elsewhere ({ $to }), which this page does not follow: give the address of the database on the server that answers
error-datasette-server = the Datasette server answered { $status }: { $message }
error-after-stop-ready = The database is ready for the next one.
error-after-stop-reopens = This database is read on demand: its worker was stopped, and the next query opens the file again (a few pages) with its page cache (up to { $cache }) empty, so it may read more of the file than it would have.
error-after-stop-left-to-server = The query was left to the Datasette server, whose own time limit ends it; the page asks nothing more of it.
