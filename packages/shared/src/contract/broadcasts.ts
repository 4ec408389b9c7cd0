import {
  Broadcast,
  BroadcastList,
  BroadcastListQuery,
  BroadcastPreview,
  BroadcastPreviewBody,
  BroadcastRecipientList,
  BroadcastRecipientsQuery,
  IdParams,
} from '../index.js';
import { defineContract } from './define.js';

export const broadcastsContract = defineContract({
  'POST /v1/broadcasts/preview': { body: BroadcastPreviewBody, reply: BroadcastPreview },
  'GET /v1/broadcasts': { query: BroadcastListQuery, reply: BroadcastList },
  'GET /v1/broadcasts/{id}': { params: IdParams, reply: Broadcast },
  'GET /v1/broadcasts/{id}/recipients': {
    params: IdParams,
    query: BroadcastRecipientsQuery,
    reply: BroadcastRecipientList,
  },
  'POST /v1/broadcasts/{id}/cancel': { params: IdParams, reply: Broadcast },
});
