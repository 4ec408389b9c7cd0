-- Contact numbers are counted per company (docs/decisions/per-company-numbers.md): each company draws from its own
-- sequence <kind>_numbers_c<company id>, created on first use. to_regclass, not an exception block: a bulk import
-- calls this once per row, and a subtransaction per row would be costly.
CREATE OR REPLACE FUNCTION harbor_company_number(kind text, company integer, first_value bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  seq_name text := format('%s_numbers_c%s', kind, company);
  seq regclass := to_regclass(seq_name);
BEGIN
  IF seq IS NULL THEN
    -- Two first inserts of a new company at once: the second waits here and then finds the sequence.
    PERFORM pg_advisory_xact_lock(hashtext(seq_name));
    EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I START %s', seq_name, first_value);
    seq := to_regclass(seq_name);
  END IF;
  RETURN nextval(seq);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contacts_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.number IS NULL OR NEW.number = 0 THEN
    NEW.number := harbor_company_number('contact', NEW.company_id, 100001);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER contacts_number BEFORE INSERT ON contacts FOR EACH ROW EXECUTE FUNCTION contacts_number();
--> statement-breakpoint
-- Companies that already have contacts continue after their own highest number; numbers already given stay.
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT company_id, max(number) + 1 AS next FROM contacts GROUP BY company_id LOOP
    EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I START %s', 'contact_numbers_c' || r.company_id, greatest(r.next, 100001));
  END LOOP;
END $$;
