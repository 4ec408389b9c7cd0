-- Reverts already done recorded a 'transfer_reverted' event per contact they put back; carry that onto the log rows,
-- which are now the one record of who was moved and who was moved back (docs/decisions/contacts-bulk-writes.md).
UPDATE transfer_logs l SET reverted_at = e.created_at
FROM contact_events e
WHERE e.contact_id = l.contact_id AND e.kind = 'transfer_reverted'
  AND (e.data->>'transfer_attempt_id')::int = l.attempt_id;--> statement-breakpoint
-- A revert marks every log row it puts back: room on each page keeps that mark a HOT update (no index entry).
ALTER TABLE transfer_logs SET (fillfactor = 90);
