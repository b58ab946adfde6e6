-- Accent-insensitive search (issue 11): "huong" finds "Hương", "duc" finds "Đức". Every list search
-- compares fold(column) with fold(search). fold() is plain SQL, IMMUTABLE, the same on PostgreSQL and
-- PGlite (no extension to install or load): lower case, Vietnamese letters without their marks, đ/Đ → d.
-- (unaccent is only STABLE, so it cannot back an index without a wrapper, and PGlite would have to
-- load it as an extension; the Vietnamese alphabet is a closed set, translate() covers it.)
-- Input is expected in NFC (what browsers and the API send); the API folds the search term the same way.
create or replace function fold(t text) returns text
  language sql immutable strict parallel safe
  as $$ select lower(translate(t, 'àÀáÁảẢãÃạẠăĂằẰắẮẳẲẵẴặẶâÂầẦấẤẩẨẫẪậẬèÈéÉẻẺẽẼẹẸêÊềỀếẾểỂễỄệỆìÌíÍỉỈĩĨịỊòÒóÓỏỎõÕọỌôÔồỒốỐổỔỗỖộỘơƠờỜớỚởỞỡỠợỢùÙúÚủỦũŨụỤưƯừỪứỨửỬữỮựỰỳỲýÝỷỶỹỸỵỴđĐ', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaeeeeeeeeeeeeeeeeeeeeeeiiiiiiiiiioooooooooooooooooooooooooooooooooouuuuuuuuuuuuuuuuuuuuuuyyyyyyyyyydd')) $$;

-- The customer list is the one that grows (tens of thousands of rows per tenant): its searched columns
-- get trigram indexes on the folded text, so '%huong%' does not scan the table.
create extension if not exists pg_trgm;
create index customers_name_fold_trgm on customers using gin (fold(name) gin_trgm_ops);
create index customers_phone_trgm on customers using gin (phone gin_trgm_ops);
create index customers_code_fold_trgm on customers using gin (fold(code) gin_trgm_ops);
create index customers_email_fold_trgm on customers using gin (fold(email) gin_trgm_ops);
