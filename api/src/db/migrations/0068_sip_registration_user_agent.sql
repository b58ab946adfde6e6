-- A phone's device (its REGISTER's User-Agent) kept with its registration (issue 39): without Redis
-- it was in the API's memory only, and a restart forgot it until the phone's next REGISTER (the
-- subscribers' screen and the wall showed no device meanwhile). '' = the phone sent none.
alter table sip_registrations add column user_agent text not null default '';
