CREATE TABLE "software_release_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"release_id" bigint NOT NULL,
	"platform" text NOT NULL,
	"arch" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "software_release_files_size" CHECK ("software_release_files"."size_bytes" > 0)
);
--> statement-breakpoint
CREATE TABLE "software_releases" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"released_on" date NOT NULL,
	"notes_zh" text DEFAULT '' NOT NULL,
	"notes_en" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "software_release_files" ADD CONSTRAINT "software_release_files_release_id_software_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."software_releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "software_release_files_release_idx" ON "software_release_files" USING btree ("release_id");--> statement-breakpoint
CREATE UNIQUE INDEX "software_releases_version_key" ON "software_releases" USING btree (lower("version"));