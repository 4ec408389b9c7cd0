import {
  AgentflowStatusesReply,
  Group,
  GroupBody,
  IdParams,
  Pool,
  PoolBody,
  PoolUpdateBody,
  Tag,
  TagBody,
} from '../index.js';
import { defineContract } from './define.js';

export const lookupsContract = defineContract({
  // 'PATCH /v1/tags': { body: TagsListBody, reply: TODO_reply },
  'POST /v1/tags': { body: TagBody, reply: Tag },
  // 'GET /v1/statuses': { reply: TODO_reply },
  'GET /v1/agentflow_statuses': { reply: AgentflowStatusesReply },
  // 'GET /v1/sources': { reply: TODO_reply },
  // 'GET /v1/api_vendors': { reply: TODO_reply },
  // 'GET /v1/carriers': { query: CarriersQuery, reply: TODO_reply },
  // 'GET /v1/groups': { reply: TODO_reply },
  'GET /v1/groups/{id}': { params: IdParams, reply: Group },
  'POST /v1/groups': { body: GroupBody, reply: Group },
  'PATCH /v1/groups/{id}': { params: IdParams, body: GroupBody, reply: Group },
  // 'DELETE /v1/groups/{id}': { params: IdParams, reply: NONE },
  // 'GET /v1/pools': { reply: TODO_reply },
  'GET /v1/pools/{id}': { params: IdParams, reply: Pool },
  'POST /v1/pools': { body: PoolBody, reply: Pool },
  'PATCH /v1/pools/{id}': { params: IdParams, body: PoolUpdateBody, reply: Pool },
  // 'DELETE /v1/pools/{id}': { params: IdParams, reply: NONE },
});
