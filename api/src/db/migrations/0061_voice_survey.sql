-- The automated voice survey (issue 34): a survey campaign in mode 'voice' (migration 0048's check allows
-- it) is called by the server with no agent, which says each question and takes the keys pressed.
-- "Số cuộc gọi cùng lúc": how many of its calls are up at once (each holds a channel of the hotline's switchboard).
alter table campaigns add column voice_channels int not null default 5 check (voice_channels between 1 and 30);

-- A voice survey's call keeps the questions as it asked them (QuestionAsAsked[], in order), written with the
-- call: the keys reported at its end are read against what was said, not against a question edited meanwhile.
alter table campaign_attempts add column voice_questions jsonb;
