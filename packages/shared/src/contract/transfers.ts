import {
  IdParams,
  RevertTransferBody,
  TransferAttempt,
  TransferAttemptList,
  TransferAttemptsQuery,
  TransferGroupBody,
  TransferLogList,
  TransferLogsQuery,
  TransferStatus,
  UpdateTransferGroupBody,
} from '../index.js';
import { defineContract } from './define.js';

export const transfersContract = defineContract({
  'PATCH /v1/contacts/transfer_group': { body: TransferGroupBody, reply: TransferAttempt },
  'PATCH /v1/contacts/update_transfer_group': { body: UpdateTransferGroupBody, reply: TransferAttempt },
  'GET /v1/contacts/transfer_attempts': { query: TransferAttemptsQuery, reply: TransferAttemptList },
  'GET /v1/contacts/transfer_attempts/{id}': { params: IdParams, reply: TransferAttempt },
  'GET /v1/contacts/transfer_attempts/{id}/status': { params: IdParams, reply: TransferStatus },
  'GET /v1/contacts/transfer_attempts/{id}/logs': {
    params: IdParams,
    query: TransferLogsQuery,
    reply: TransferLogList,
  },
  'PATCH /v1/contacts/transfer_attempts/{id}': { params: IdParams, body: RevertTransferBody, reply: TransferAttempt },
  'POST /v1/contacts/transfer_attempts/{id}': { params: IdParams, body: RevertTransferBody, reply: TransferAttempt },
});
