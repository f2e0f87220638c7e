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

## The data described (ui/schema_view, hiding, knowledge; present/hiding; knowledge's errors)
# (the schema, hidden columns, notes about the data)

## The data queried (ui/console, result_table, chart_view, ledger_view, table_scroll, value_index, follow, task; present/ledger, value_index, errors, chart, csv, time; count)
# (the console, results, charts, the ledger, a database's errors)
