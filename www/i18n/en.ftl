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

## The question and the answer (ui/chat/*, markdown_view, tokens; present/transcript; llm and conversation errors)
# (asking, the transcript, replay, candidates, kept conversations)

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

## The data queried (ui/console, result_table, chart_view, ledger_view, table_scroll, value_index, follow, task; present/ledger, value_index, errors, chart, csv, time; count)
# (the console, results, charts, the ledger, a database's errors)
