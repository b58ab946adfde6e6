-- A survey question's recording (issue 34): an automated voice survey plays this uploaded file (one of the
-- tenant's greetings, pbx_audio) as the question's prompt instead of speech of its text; the text stays what
-- the results and the agents' screen show. Null: the question is spoken. As an IVR's greeting, the key carries
-- tenant_id (a question never points at another tenant's file) and has no delete action: a file a question
-- plays is not deleted under it (the API answers that delete with a 409: used by a survey question).
alter table survey_questions add column voice_audio_id int;
alter table survey_questions add constraint survey_questions_voice_audio_fk
  foreign key (tenant_id, voice_audio_id) references pbx_audio (tenant_id, id);
-- The delete's check reads the questions by their file (no seq scan of every tenant's questions per delete).
create index survey_questions_voice_audio_idx on survey_questions (tenant_id, voice_audio_id) where voice_audio_id is not null;
-- survey_questions keeps its row-level security (migration 0047): nothing else to grant.
