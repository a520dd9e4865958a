ALTER TABLE "exit_nodes" ADD COLUMN "health" text DEFAULT 'unknown' NOT NULL;--> statement-breakpoint
ALTER TABLE "exit_nodes" ADD COLUMN "latency_ms" integer;--> statement-breakpoint
ALTER TABLE "exit_nodes" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exit_nodes" ADD COLUMN "probe_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "exit_nodes" ADD COLUMN "probe_error" text;