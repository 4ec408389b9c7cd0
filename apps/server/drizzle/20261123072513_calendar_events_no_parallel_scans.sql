-- Calendar queries are one user's range of a few hundred rows at most, but the planner cannot see that the open
-- events due by today are few (it reckons with every future event): it planned a parallel worker, whose start cost
-- more than the query (bench/calendar.ts: today queue 15.8 ms -> 0.1 ms). No parallel scans of this table.
ALTER TABLE "calendar_events" SET (parallel_workers = 0);
