-- One extension identity: an account's extension is the subscriber linked to it
-- (subscribers.user_id), the number that registers and rings. users.extension_code (a free
-- text such as "dn0001") is no longer read or written; a later migration drops it once every
-- branch that still names it is merged.
update users set extension_code = null;

-- Roles keep their code in `name` (SPEC §6 checks the name super-admin) and show a display
-- name on screens; '' shows the name itself (roles a tenant creates are named in Vietnamese).
alter table roles add column display_name text not null default '';
update roles set display_name = 'Quản trị hệ thống' where name = 'super-admin' and display_name = '';
