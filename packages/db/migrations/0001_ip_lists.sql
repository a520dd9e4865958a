CREATE TABLE "gateway_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ip_list_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"list" text NOT NULL,
	"entry" text NOT NULL,
	"kind" text NOT NULL,
	"family" integer NOT NULL,
	"start_hex" text NOT NULL,
	"end_hex" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ip_list_entries_unique_range" ON "ip_list_entries" USING btree ("user_id","list","family","start_hex","end_hex");--> statement-breakpoint
CREATE INDEX "ip_list_entries_user_idx" ON "ip_list_entries" USING btree ("user_id","list","id");--> statement-breakpoint
INSERT INTO "gateway_state" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;
