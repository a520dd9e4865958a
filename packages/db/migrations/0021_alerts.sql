CREATE TABLE "alert_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" bigint NOT NULL,
	"period" text NOT NULL,
	"payload" jsonb NOT NULL,
	"mail_state" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"usage_thresholds" integer[] NOT NULL,
	"balance_low_fen" bigint,
	"balance_low_period" integer DEFAULT 0 NOT NULL,
	"is_balance_low_alerted" boolean DEFAULT false NOT NULL,
	"channels" jsonb NOT NULL,
	"lang" text DEFAULT 'zh' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_events_key" ON "alert_events" USING btree ("subject_type","subject_id","kind","period");--> statement-breakpoint
CREATE INDEX "alert_events_user_idx" ON "alert_events" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "alert_events_mail_idx" ON "alert_events" USING btree ("mail_state","id");