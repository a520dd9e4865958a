CREATE TABLE "pools" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"protocol" text NOT NULL,
	"endpoints" jsonb NOT NULL,
	"username" text NOT NULL,
	"password" text NOT NULL,
	"username_template" text NOT NULL,
	"area_case" text DEFAULT 'lower' NOT NULL,
	"area_mapping" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"coverage_mode" text DEFAULT 'all' NOT NULL,
	"coverage" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cost_per_gb_fen" bigint DEFAULT 0 NOT NULL,
	"priority" integer DEFAULT 10 NOT NULL,
	"weight" integer DEFAULT 100 NOT NULL,
	"max_connections" integer DEFAULT 1000 NOT NULL,
	"status" text DEFAULT 'paused' NOT NULL,
	"last_check" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pools_numbers" CHECK ("pools"."cost_per_gb_fen" >= 0 AND "pools"."priority" >= 0 AND "pools"."weight" >= 1 AND "pools"."max_connections" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "pools_name_key" ON "pools" USING btree (lower("name"));