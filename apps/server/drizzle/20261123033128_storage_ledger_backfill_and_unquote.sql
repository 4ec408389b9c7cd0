-- The storage ledger starts with every contact file already stored, and each company's usage is their sum
-- (docs/decisions/storage-quota.md). Import attachments written under the old keys keep them (the storage port
-- reads and deletes those keys; it writes none).
INSERT INTO stored_blobs (key, company_id, bytes, state)
SELECT storage_key, company_id, size, 'live' FROM contact_files
ON CONFLICT (key) DO NOTHING;
--> statement-breakpoint
INSERT INTO storage_usage (company_id, used_bytes)
SELECT company_id, sum(bytes) FROM stored_blobs GROUP BY company_id
ON CONFLICT (company_id) DO UPDATE SET used_bytes = excluded.used_bytes;
--> statement-breakpoint
-- Imports used to store formula-looking cells with a leading quote ('=HYPERLINK...). Text is now stored as typed
-- and neutralised on export (docs/decisions/formula-neutralisation-on-export.md). The quote is removed only where
-- we added it: on contacts an import created or updated, in the fields the import quoted, when it is followed by
-- = + - @ tab or CR and what follows is not a plain number (those were never quoted).
UPDATE contacts c SET
  first_name = CASE WHEN (c.first_name ~ '^''[=+@\t\r-]' AND c.first_name !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') THEN substr(c.first_name, 2) ELSE c.first_name END,
  last_name = CASE WHEN (c.last_name ~ '^''[=+@\t\r-]' AND c.last_name !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') THEN substr(c.last_name, 2) ELSE c.last_name END,
  address = CASE WHEN (c.address ~ '^''[=+@\t\r-]' AND c.address !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') THEN substr(c.address, 2) ELSE c.address END,
  address2 = CASE WHEN (c.address2 ~ '^''[=+@\t\r-]' AND c.address2 !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') THEN substr(c.address2, 2) ELSE c.address2 END,
  city = CASE WHEN (c.city ~ '^''[=+@\t\r-]' AND c.city !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') THEN substr(c.city, 2) ELSE c.city END,
  county = CASE WHEN (c.county ~ '^''[=+@\t\r-]' AND c.county !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') THEN substr(c.county, 2) ELSE c.county END,
  medicare_number = CASE WHEN (c.medicare_number ~ '^''[=+@\t\r-]' AND c.medicare_number !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') THEN substr(c.medicare_number, 2) ELSE c.medicare_number END,
  extra = (SELECT coalesce(jsonb_object_agg(x.k, CASE WHEN jsonb_typeof(x.v) = 'string' AND ((x.v #>> '{}') ~ '^''[=+@\t\r-]' AND (x.v #>> '{}') !~ '^''[+-]?[0-9]+([.,][0-9]+)?$')
      THEN to_jsonb(substr((x.v #>> '{}'), 2)) ELSE x.v END), '{}'::jsonb) FROM jsonb_each(c.extra) AS x(k, v))
WHERE EXISTS (SELECT 1 FROM contact_events e WHERE e.contact_id = c.id AND e.kind IN ('imported', 'import_updated'))
  AND ((c.first_name ~ '^''[=+@\t\r-]' AND c.first_name !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') OR (c.last_name ~ '^''[=+@\t\r-]' AND c.last_name !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') OR (c.address ~ '^''[=+@\t\r-]' AND c.address !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') OR (c.address2 ~ '^''[=+@\t\r-]' AND c.address2 !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') OR (c.city ~ '^''[=+@\t\r-]' AND c.city !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') OR (c.county ~ '^''[=+@\t\r-]' AND c.county !~ '^''[+-]?[0-9]+([.,][0-9]+)?$') OR (c.medicare_number ~ '^''[=+@\t\r-]' AND c.medicare_number !~ '^''[+-]?[0-9]+([.,][0-9]+)?$')
    OR EXISTS (SELECT 1 FROM jsonb_each(c.extra) AS x(k, v) WHERE jsonb_typeof(x.v) = 'string' AND ((x.v #>> '{}') ~ '^''[=+@\t\r-]' AND (x.v #>> '{}') !~ '^''[+-]?[0-9]+([.,][0-9]+)?$')));
--> statement-breakpoint
-- Tag names an import's Tags column gave were quoted the same way; a quoted name whose plain twin exists is kept.
UPDATE tags t SET name = substr(t.name, 2)
WHERE (t.name ~ '^''[=+@\t\r-]' AND t.name !~ '^''[+-]?[0-9]+([.,][0-9]+)?$')
  AND NOT EXISTS (SELECT 1 FROM tags t2 WHERE t2.company_id = t.company_id AND lower(t2.name) = lower(substr(t.name, 2)));
