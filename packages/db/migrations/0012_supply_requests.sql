CREATE TABLE "supply_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"type" text NOT NULL,
	"product" text NOT NULL,
	"network" text NOT NULL,
	"amount" integer NOT NULL,
	"days" integer,
	"region" text NOT NULL,
	"wait_days" integer NOT NULL,
	"cost_fen" bigint NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"contact_email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"fail_reason" text,
	"idempotency_key" text,
	"operator_id" bigint,
	"order_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"taken_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "supply_requests_values" CHECK ("supply_requests"."amount" > 0 AND "supply_requests"."cost_fen" > 0 AND "supply_requests"."wait_days" BETWEEN 1 AND 30)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "supply_requests_idempotency_key" ON "supply_requests" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "supply_requests_user_idx" ON "supply_requests" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "supply_requests_open_idx" ON "supply_requests" USING btree ("status","deadline_at");