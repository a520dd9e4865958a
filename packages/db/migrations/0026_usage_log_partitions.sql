-- Written by hand (drizzle-kit cannot express partitioning; the snapshot holds the columns, keys and indexes).
-- usage_log_entries becomes PARTITION BY RANGE (expires_on): each row carries the last day it is kept
-- (day + its owner's retention when written), one partition per such day, dropped whole once the day has
-- passed, and a DEFAULT partition for rows whose day's partition does not exist yet. The existing rows are
-- kept (with the ids and the id sequence), in the default partition: the server's usage-log job moves them
-- into their days' partitions as it creates them, and deletes those already past.
ALTER TABLE "usage_log_settings" ADD COLUMN "trim_until" date;--> statement-breakpoint
ALTER TABLE "usage_log_entries" RENAME TO "usage_log_entries_unpartitioned";--> statement-breakpoint
ALTER SEQUENCE "usage_log_entries_id_seq" RENAME TO "usage_log_entries_unpartitioned_id_seq";--> statement-breakpoint
DROP INDEX "usage_log_entries_token_idx";--> statement-breakpoint
DROP INDEX "usage_log_entries_day_idx";--> statement-breakpoint
CREATE TABLE "usage_log_entries" (
	"id" bigserial NOT NULL,
	"user_id" bigint NOT NULL,
	"token_id" bigint NOT NULL,
	"day" date NOT NULL,
	"protocol" text NOT NULL,
	"source_ip" text NOT NULL,
	"target_host" text NOT NULL,
	"target_port" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"bytes_up" bigint NOT NULL,
	"bytes_down" bigint NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"expires_on" date NOT NULL,
	CONSTRAINT "usage_log_entries_id_expires_on_pk" PRIMARY KEY("id","expires_on")
) PARTITION BY RANGE ("expires_on");--> statement-breakpoint
CREATE TABLE "usage_log_entries_default" PARTITION OF "usage_log_entries" DEFAULT;--> statement-breakpoint
CREATE INDEX "usage_log_entries_token_idx" ON "usage_log_entries" USING btree ("token_id","ended_at");--> statement-breakpoint
CREATE INDEX "usage_log_entries_user_day_idx" ON "usage_log_entries" USING btree ("user_id","day");--> statement-breakpoint
INSERT INTO "usage_log_entries"
	("id", "user_id", "token_id", "day", "protocol", "source_ip", "target_host", "target_port", "started_at", "ended_at", "bytes_up", "bytes_down", "outcome", "reason", "expires_on")
	SELECT e."id", e."user_id", e."token_id", e."day", e."protocol", e."source_ip", e."target_host", e."target_port", e."started_at", e."ended_at",
		e."bytes_up", e."bytes_down", e."outcome", e."reason", e."day" + COALESCE(s."retention_days", 1)
	FROM "usage_log_entries_unpartitioned" e LEFT JOIN "usage_log_settings" s ON s."user_id" = e."user_id";--> statement-breakpoint
SELECT setval('"usage_log_entries_id_seq"', q.last_value, q.is_called) FROM "usage_log_entries_unpartitioned_id_seq" q;--> statement-breakpoint
DROP TABLE "usage_log_entries_unpartitioned";
