CREATE TABLE "usage_log_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
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
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "usage_log_settings" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"retention_days" integer DEFAULT 7 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_log_settings_retention_check" CHECK ("usage_log_settings"."retention_days" BETWEEN 1 AND 30)
);
--> statement-breakpoint
CREATE INDEX "usage_log_entries_token_idx" ON "usage_log_entries" USING btree ("token_id","ended_at");--> statement-breakpoint
CREATE INDEX "usage_log_entries_day_idx" ON "usage_log_entries" USING btree ("day","user_id");