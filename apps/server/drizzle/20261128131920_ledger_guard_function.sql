-- Fails the statement that calls it unless `ok`: the unlocked posting (ledger.ts applyMovementsUnlocked) writes its
-- batch in one statement that must not commit when a wallet it moves changed since it was read, or a key of the
-- batch was taken. A serialization failure, so the poster retries the batch (on the locking path).
CREATE OR REPLACE FUNCTION ledger_guard(ok boolean, message text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION '%', message USING ERRCODE = 'serialization_failure';
  END IF;
  RETURN true;
END $$;
