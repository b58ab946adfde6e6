-- Issue 30: a new extension has its mailbox on (3CX's default; FreePBX asks on the form): a direct
-- call nobody answers goes to voicemail instead of ending "Không trả lời". Existing extensions keep
-- what they have (an explicit "off" and the old default cannot be told apart). No PIN is needed for
-- the extension's own phone (*97) or its web panel; a PIN opens it from another phone.
alter table subscribers alter column voicemail_enabled set default true;
