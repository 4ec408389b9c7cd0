-- Import and transfer attempts take the next number of their company's own sequence on insert, like contacts
-- (harbor_company_number, docs/decisions/per-company-numbers.md).
CREATE OR REPLACE FUNCTION import_attempts_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.number IS NULL OR NEW.number = 0 THEN
    NEW.number := harbor_company_number('import', NEW.company_id, 1);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER import_attempts_number BEFORE INSERT ON import_attempts FOR EACH ROW EXECUTE FUNCTION import_attempts_number();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION transfer_attempts_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.number IS NULL OR NEW.number = 0 THEN
    NEW.number := harbor_company_number('transfer', NEW.company_id, 1);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER transfer_attempts_number BEFORE INSERT ON transfer_attempts FOR EACH ROW EXECUTE FUNCTION transfer_attempts_number();
--> statement-breakpoint
-- Companies with attempts already continue after their highest number.
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT company_id, max(number) + 1 AS next FROM import_attempts GROUP BY company_id LOOP
    EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I START %s', 'import_numbers_c' || r.company_id, r.next);
  END LOOP;
  FOR r IN SELECT company_id, max(number) + 1 AS next FROM transfer_attempts GROUP BY company_id LOOP
    EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I START %s', 'transfer_numbers_c' || r.company_id, r.next);
  END LOOP;
END $$;
