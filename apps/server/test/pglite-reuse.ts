/**
 * Embedded databases handed from one test file to the next within a worker, reset to the seeded template in one
 * statement instead of loaded afresh from its snapshot. Loading a PGlite copy cost ~1 s of CPU a test file (unpacking
 * 65 MB into its in-memory file system and starting PostgreSQL), ~100 s of each embedded pass; the reset truncates
 * every table, copies the template's rows back and sets every sequence where the template left it.
 *
 * The template keeps its rows in a schema of its own (`harbor_template`, written once by global-setup.ts), which the
 * application never reads. Tables a test created are dropped. Triggers and foreign-key checks are off while the rows
 * go back (session_replication_role): the rows are the template's own, derived tables (contact_search) included.
 * PGlite keeps no other state between connections that a test file could leave behind: it ignores statement names.
 */

/** Run on the template once, after it is migrated and seeded: what `reset` puts back, and `reset` itself. */
export const PREPARE_REUSE_SQL = [
  'create schema harbor_template',
  'create table harbor_template.tables (name text primary key, cols text not null, n bigint not null)',
  'create table harbor_template.sequences (name text primary key, last_value bigint not null, is_called boolean not null)',
  `do $$
declare
  r record;
  columns text;
  copied bigint;
begin
  for r in select c.relname from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = 'public' and c.relkind = 'r' loop
    -- Generated columns are recomputed on insert, never written.
    select string_agg(format('%I', a.attname), ', ' order by a.attnum) into columns from pg_attribute a
      where a.attrelid = format('public.%I', r.relname)::regclass and a.attnum > 0 and not a.attisdropped
        and a.attgenerated = '';
    execute format('create table harbor_template.%I as select %s from public.%I', r.relname, columns, r.relname);
    get diagnostics copied = row_count;
    insert into harbor_template.tables values (r.relname, columns, copied);
  end loop;
  for r in select c.relname from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = 'public' and c.relkind = 'S' loop
    execute format('insert into harbor_template.sequences select %L, last_value, is_called from public.%I',
      r.relname, r.relname);
  end loop;
end $$`,
  `create function harbor_template.reset() returns void language plpgsql as $$
declare
  r record;
begin
  for r in select c.relname, c.relkind from pg_class c join pg_namespace s on s.oid = c.relnamespace
      where s.nspname = 'public' and ((c.relkind = 'r' and c.relname not in (select name from harbor_template.tables))
        or (c.relkind = 'S' and c.relname not in (select name from harbor_template.sequences))) loop
    execute format(case when r.relkind = 'r' then 'drop table if exists public.%I cascade'
      else 'drop sequence if exists public.%I cascade' end, r.relname);
  end loop;
  execute (select 'truncate ' || string_agg(format('public.%I', name), ', ') from harbor_template.tables);
  perform set_config('session_replication_role', 'replica', true);
  for r in select name, cols from harbor_template.tables where n > 0 loop
    execute format('insert into public.%I (%s) select %s from harbor_template.%I', r.name, r.cols, r.cols, r.name);
  end loop;
  perform set_config('session_replication_role', 'origin', true);
  for r in select name, last_value, is_called from harbor_template.sequences loop
    perform setval(format('public.%I', r.name), r.last_value, r.is_called);
  end loop;
end $$`,
];

export const RESET_SQL = 'select harbor_template.reset()';
