-- Trigram matching for substring search over contacts (name, email, phone); available on PGlite and PostgreSQL.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
