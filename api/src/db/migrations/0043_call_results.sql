-- Who answered a call, decided once (issue 30, ADR 0045). ANSWERED is a person's answer (an
-- extension, or someone outside reached through a carrier); VOICEMAIL a mailbox took the call;
-- AUTO only the PBX's menus answered (an IVR the caller left, an announcement, the mailbox menu).
-- The rollups count each on its own, and talk time only for calls a person answered.
do $$
declare r record;
begin
  -- The parent's check, and the copy each partition made with LIKE … INCLUDING CONSTRAINTS holds.
  for r in select c.conrelid::regclass as t, c.conname from pg_constraint c
           where c.contype = 'c' and pg_get_constraintdef(c.oid) like '%disposition%'
             and (c.conrelid = 'cdrs'::regclass or c.conrelid in (select inhrelid from pg_inherits where inhparent = 'cdrs'::regclass))
           order by c.conrelid = 'cdrs'::regclass desc loop
    execute format('alter table %s drop constraint if exists %I', r.t, r.conname);
  end loop;
end $$;
alter table cdrs add constraint cdrs_disposition_check
  check (disposition in ('ANSWERED', 'VOICEMAIL', 'AUTO', 'NO ANSWER', 'BUSY', 'FAILED', 'BLOCKED'));

alter table cdr_hourly
  add column voicemail int not null default 0,
  add column auto int not null default 0,
  add column voicemail_wait_sec bigint not null default 0,
  add column auto_wait_sec bigint not null default 0;
alter table cdr_daily
  add column voicemail int not null default 0,
  add column auto int not null default 0;
alter table cdr_daily_queue
  add column voicemail int not null default 0,
  add column auto int not null default 0,
  add column voicemail_wait_sec bigint not null default 0,
  add column auto_wait_sec bigint not null default 0;
