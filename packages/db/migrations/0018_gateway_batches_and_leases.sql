CREATE TABLE "gateway_instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_leases" (
	"instance_id" uuid NOT NULL,
	"token_id" bigint NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "gateway_leases_instance_id_token_id_pk" PRIMARY KEY("instance_id","token_id")
);
--> statement-breakpoint
CREATE TABLE "gateway_usage_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gateway_leases" ADD CONSTRAINT "gateway_leases_token_id_proxy_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."proxy_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_usage_batches_created_idx" ON "gateway_usage_batches" USING btree ("created_at");