-- Accent-insensitive search text for contacts, kept in contact_search by triggers (docs/decisions/contacts-search.md).
-- unaccent ships with PostgreSQL's contrib and with PGlite (@electric-sql/pglite/contrib/unaccent).
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is STABLE (its dictionary could change); naming the dictionary makes the result fixed, so the fold can
-- be IMMUTABLE and the planner folds it into a constant pattern the trigram index can use.
CREATE OR REPLACE FUNCTION harbor_fold(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, t)) $$;--> statement-breakpoint
-- One line of search text: folded name and email, then the digits of each phone, every word between spaces (a
-- 7-digit query matches the end of a number as '%8920000 %').
CREATE OR REPLACE FUNCTION contact_search_text(first_name text, last_name text, email text, phone text, phone2 text)
  RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ' ' || coalesce(harbor_fold(concat_ws(' ', nullif(first_name, ''), nullif(last_name, ''), email)), '')
    || ' ' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g')
    || ' ' || regexp_replace(coalesce(phone2, ''), '[^0-9]', '', 'g') || ' ' $$;--> statement-breakpoint
-- Inserts: one set-based statement per INSERT (imports write thousands of rows at once).
CREATE OR REPLACE FUNCTION contacts_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_search (contact_id, company_id, search)
  SELECT n.id, n.company_id, contact_search_text(n.first_name, n.last_name, n.email, n.phone, n.secondary_phone)
  FROM new_contacts n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts
  REFERENCING NEW TABLE AS new_contacts FOR EACH STATEMENT EXECUTE FUNCTION contacts_search_insert();--> statement-breakpoint
-- Updates: only when a searched column is set AND changes; a transfer or a group change never fires it.
CREATE OR REPLACE FUNCTION contacts_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contact_search SET company_id = NEW.company_id,
    search = contact_search_text(NEW.first_name, NEW.last_name, NEW.email, NEW.phone, NEW.secondary_phone)
  WHERE contact_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contacts_search_update AFTER UPDATE OF first_name, last_name, email, phone, secondary_phone ON contacts
  FOR EACH ROW WHEN ((OLD.first_name, OLD.last_name, OLD.email, OLD.phone, OLD.secondary_phone)
    IS DISTINCT FROM (NEW.first_name, NEW.last_name, NEW.email, NEW.phone, NEW.secondary_phone))
  EXECUTE FUNCTION contacts_search_update();--> statement-breakpoint
-- Deletes (an import undone): set-based too. No foreign key on contact_search: a key check per inserted row would
-- cost an import more than the trigram index itself.
CREATE OR REPLACE FUNCTION contacts_search_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM contact_search s USING old_contacts o WHERE s.contact_id = o.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts
  REFERENCING OLD TABLE AS old_contacts FOR EACH STATEMENT EXECUTE FUNCTION contacts_search_delete();--> statement-breakpoint
INSERT INTO contact_search (contact_id, company_id, search)
SELECT id, company_id, contact_search_text(first_name, last_name, email, phone, secondary_phone) FROM contacts;--> statement-breakpoint
-- Room on each page for a new row version: updates of unindexed columns (group, status, notes, is_new) stay on the
-- page as HOT updates and write no index entry. Applies to pages written from now on (VACUUM FULL for old ones).
ALTER TABLE contacts SET (fillfactor = 90);
