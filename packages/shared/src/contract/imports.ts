import {
  IdParams,
  ImportAttempt,
  ImportAttemptDetail,
  ImportAttemptList,
  ImportAttemptsQuery,
  ImportPreview,
  ImportRowList,
  ImportRowsQuery,
  ImportSetting,
  ImportSettingBody,
  ImportUploadForm,
  NoContent,
  UndoPreview,
  WorkersStatus,
} from '../index.js';
import { defineContract } from './define.js';

export const importsContract = defineContract({
  'POST /v1/contacts/validate_import': { form: ImportUploadForm, reply: ImportPreview },
  'POST /v1/contacts/import': { form: ImportUploadForm, reply: ImportAttempt },
  'POST /v1/contacts/leads_uploader': { form: ImportUploadForm, reply: ImportAttempt },
  'POST /v1/contacts/clients_uploader': { form: ImportUploadForm, reply: ImportAttempt },
  'POST /v1/contacts/attachments_leads_uploader': { form: ImportUploadForm, reply: ImportAttempt },
  // 'POST /v1/contacts/import_attachments': { reply: TODO_reply }, // multipart
  'GET /v1/contacts/import_attempts': { query: ImportAttemptsQuery, reply: ImportAttemptList },
  // 'DELETE /v1/contacts/delete_import_attempts/{id}': { params: IdParams, query: TODO_query, body: TODO_body, reply: TODO_reply },
  'POST /v1/contacts/retry_failed_import_attempts/{id}': { params: IdParams, reply: ImportAttempt },
  'GET /v1/contacts/workers_status': { reply: WorkersStatus },
  'GET /v1/contacts/import_attempts/{id}': { params: IdParams, reply: ImportAttemptDetail },
  'GET /v1/contacts/import_attempts/{id}/rows': { params: IdParams, query: ImportRowsQuery, reply: ImportRowList },
  // 'GET /v1/contacts/import_attempts/{id}/not_imported.csv': { params: IdParams, reply: NONE },
  'GET /v1/contacts/import_attempts/{id}/undo': { params: IdParams, reply: UndoPreview },
  'POST /v1/contacts/import_attempts/{id}/undo': { params: IdParams, reply: ImportAttempt },
  // 'GET /v1/import_settings': { reply: TODO_reply },
  'POST /v1/import_settings': { body: ImportSettingBody, reply: ImportSetting },
  'DELETE /v1/import_settings/{id}': { params: IdParams, reply: NoContent },
});
