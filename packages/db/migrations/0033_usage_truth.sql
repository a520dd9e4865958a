CREATE TABLE "session_exit_claims" (
	"user_id" bigint NOT NULL,
	"exit_key" text NOT NULL,
	"session_key" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_exit_claims_user_id_exit_key_pk" PRIMARY KEY("user_id","exit_key")
);
--> statement-breakpoint
CREATE TABLE "domain_usage" (
	"day" date NOT NULL,
	"token_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"domain" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"connections" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "domain_usage_day_token_id_domain_pk" PRIMARY KEY("day","token_id","domain")
);
--> statement-breakpoint
CREATE TABLE "sticky_sessions" (
	"token_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"session" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"asked_minutes" integer NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"carrier" text,
	"exit_ip" text,
	"changed_at" timestamp with time zone,
	"end_reason" text,
	"connections" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sticky_sessions_token_id_session_window_start_pk" PRIMARY KEY("token_id","session","window_start")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "domain_usage_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "token_usage" ADD COLUMN "uncharged_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_log_entries" ADD COLUMN "uncharged_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "carrier_usage" ADD COLUMN "uncharged_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "exit_ip_header" text;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "session_idle_minutes" integer;--> statement-breakpoint
CREATE INDEX "session_exit_claims_expires_idx" ON "session_exit_claims" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "domain_usage_user_day_idx" ON "domain_usage" USING btree ("user_id","day");--> statement-breakpoint
CREATE INDEX "sticky_sessions_token_idx" ON "sticky_sessions" USING btree ("token_id","window_start");--> statement-breakpoint
CREATE INDEX "sticky_sessions_user_idx" ON "sticky_sessions" USING btree ("user_id","window_start");--> statement-breakpoint
CREATE INDEX "users_domain_usage_off_idx" ON "users" USING btree ("id") WHERE NOT "users"."domain_usage_enabled";