import { IdParams, TransferAttempt } from '../index.js';
import { defineContract } from './define.js';

export const transfersContract = defineContract({
  // 'PATCH /v1/contacts/transfer_group': { body: TODO_body, reply: TransferAttempt },
  // 'PATCH /v1/contacts/update_transfer_group': { body: TODO_body, reply: TransferAttempt },
  // 'GET /v1/contacts/transfer_attempts': { query: TODO_query, reply: TransferAttemptList },
  'GET /v1/contacts/transfer_attempts/{id}': { params: IdParams, reply: TransferAttempt },
  // 'GET /v1/contacts/transfer_attempts/{id}/status': { params: IdParams, reply: TODO_reply },
  // 'GET /v1/contacts/transfer_attempts/{id}/logs': { params: IdParams, query: TODO_query, reply: TransferLogList },
  // 'PATCH /v1/contacts/transfer_attempts/{id}': { params: IdParams, body: TODO_body, reply: TransferAttempt },
  // 'POST /v1/contacts/transfer_attempts/{id}': { params: IdParams, body: TODO_body, reply: TransferAttempt },
});
