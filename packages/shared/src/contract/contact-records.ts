import {
  ContactFile,
  ContactFileForm,
  ContactParams,
  Note,
  NoteBody,
  Policy,
  PolicyBody,
  Security,
  SecurityBody,
} from '../index.js';
import { defineContract } from './define.js';

export const contactRecordsContract = defineContract({
  // 'GET /v1/contacts/{id}/notes': { params: ContactParams, reply: TODO_reply },
  'POST /v1/contacts/{id}/notes': { params: ContactParams, body: NoteBody, reply: Note },
  // 'PATCH /v1/contacts/{id}/notes/{noteId}': { params: TODO_params, body: NoteBody, reply: Note },
  // 'DELETE /v1/contacts/{id}/notes/{noteId}': { params: TODO_params, reply: NONE },
  // 'GET /v1/contacts/{id}/files': { params: ContactParams, reply: TODO_reply },
  'POST /v1/contacts/{id}/files': { params: ContactParams, form: ContactFileForm, reply: ContactFile },
  // 'GET /v1/contacts/{id}/files/{fileId}/download': { params: TODO_params, reply: NONE },
  // 'DELETE /v1/contacts/{id}/files/{fileId}': { params: TODO_params, reply: NONE },
  // 'GET /v1/contacts/{id}/policies': { params: ContactParams, reply: TODO_reply },
  'POST /v1/contacts/{id}/policies': { params: ContactParams, body: PolicyBody, reply: Policy },
  // 'GET /v1/contacts/{id}/policies/{policyId}': { params: TODO_params, reply: Policy },
  // 'PATCH /v1/contacts/{id}/policies/{policyId}': { params: TODO_params, body: PolicyUpdateBody, reply: Policy },
  // 'DELETE /v1/contacts/{id}/policies/{policyId}': { params: TODO_params, reply: NONE },
  // 'GET /v1/contacts/{id}/securities': { params: ContactParams, reply: TODO_reply },
  'POST /v1/contacts/{id}/securities': { params: ContactParams, body: SecurityBody, reply: Security },
  // 'GET /v1/contacts/{id}/securities/{securityId}': { params: TODO_params, reply: Security },
  // 'PATCH /v1/contacts/{id}/securities/{securityId}': { params: TODO_params, body: SecurityUpdateBody, reply: Security },
  // 'DELETE /v1/contacts/{id}/securities/{securityId}': { params: TODO_params, reply: NONE },
});
