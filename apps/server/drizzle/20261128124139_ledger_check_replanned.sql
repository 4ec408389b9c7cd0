-- The entries check of ledger_guards, planned afresh for each statement (EXECUTE) and without JIT. PL/pgSQL keeps a
-- cached plan per session: the one picked while ledger_transactions was nearly empty hash-joined it by a sequential
-- scan, so every batch of debits read the whole table (bench/wallet.ts: 7,300 debits/s across 1,000 wallets after
-- 15k transactions, 2,000/s after 100k). Without statistics the per-transaction sum is costed at hundreds of rows a
-- transaction, enough to pass jit_above_cost and pay a 30-40 ms compile for a sub-millisecond check.
CREATE OR REPLACE FUNCTION ledger_entries_check() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
DECLARE
  bad bigint;
BEGIN
  EXECUTE 'SELECT n.transaction_id
           FROM (SELECT DISTINCT transaction_id FROM new_entries) n
           WHERE (SELECT sum(e.amount) FROM ledger_entries e WHERE e.transaction_id = n.transaction_id) <> 0
           LIMIT 1' INTO bad;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % does not balance', bad USING ERRCODE = 'check_violation';
  END IF;
  EXECUTE 'SELECT n.transaction_id
           FROM new_entries n
           LEFT JOIN ledger_accounts a ON a.id = n.account_id
           LEFT JOIN ledger_transactions t ON t.id = n.transaction_id
           WHERE a.company_id IS DISTINCT FROM n.company_id OR t.company_id IS DISTINCT FROM n.company_id
           LIMIT 1' INTO bad;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % names an account or transaction of another company, or none',
      bad USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;
