-- The ledger's rules held by the database itself, whatever code writes to it (docs/decisions/wallet-ledger.md).
-- 1. After each INSERT into ledger_entries, every ledger transaction it touched sums to zero over all its entries
--    (so a transaction's legs go in one statement, and nothing can be added to it later), and every new entry names
--    an existing account and transaction, both of the entry's company. Statement-level with a transition table:
--    one check per statement instead of per-row foreign-key triggers, so a batch of debits pays for it once.
CREATE OR REPLACE FUNCTION ledger_entries_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad bigint;
BEGIN
  SELECT n.transaction_id INTO bad
  FROM (SELECT DISTINCT transaction_id FROM new_entries) n
  WHERE (SELECT sum(e.amount) FROM ledger_entries e WHERE e.transaction_id = n.transaction_id) <> 0
  LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % does not balance', bad USING ERRCODE = 'check_violation';
  END IF;
  SELECT n.transaction_id INTO bad
  FROM new_entries n
  LEFT JOIN ledger_accounts a ON a.id = n.account_id
  LEFT JOIN ledger_transactions t ON t.id = n.transaction_id
  WHERE a.company_id IS DISTINCT FROM n.company_id OR t.company_id IS DISTINCT FROM n.company_id
  LIMIT 1;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % names an account or transaction of another company, or none',
      bad USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_check AFTER INSERT ON ledger_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_check();
--> statement-breakpoint
-- 2. The ledger is append-only: a mistake is corrected by a new, reversing transaction, never by an edit; and an
--    account, once it exists, is never removed (entries point at it).
CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: post a reversing transaction instead', TG_TABLE_NAME
    USING ERRCODE = 'check_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_kept BEFORE DELETE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
