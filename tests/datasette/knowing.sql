-- The `knowing` database the test Datasette serves (tests/datasette/serve.sh): a copy of shop
-- with askdb's knowledge tables in it, and views over them, for the tests that the knowledge
-- reaches the model while the model can read none of it (model_view::knowledge_fence).
-- The markers are words no query of the model's and no data of shop holds, so that a request
-- or a server log line that has one was sent something of these tables.
CREATE TABLE askdb_notes (table_name TEXT NOT NULL, column_name TEXT, note TEXT NOT NULL);
INSERT INTO askdb_notes VALUES
  ('customers', 'prefecture', 'NOTE-K7: in English, as in Tokyo'),
  ('orders', NULL, 'NOTE-K8: one row per order');
CREATE TABLE askdb_checks (question TEXT NOT NULL, sql TEXT NOT NULL, also_accepted TEXT);
INSERT INTO askdb_checks VALUES
  ('Which customers live in Tokyo?',
   'SELECT name AS golden_answer_k9 FROM customers WHERE prefecture = ''Tokyo'' ORDER BY name',
   NULL);
-- A view over a knowledge table, and a view over that view.
CREATE VIEW golden AS SELECT * FROM askdb_checks;
CREATE VIEW "Golden Again" AS SELECT question, sql FROM golden;
-- An ordinary table, for the positive control: a query's result reaches the model.
CREATE TABLE memo (note TEXT);
INSERT INTO memo VALUES ('memo-marker-k5');
