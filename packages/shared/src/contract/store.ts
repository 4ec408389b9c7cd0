import { AgentInfo, IdParams, StoreItem, StoreItemList, StoreOrder, StoreOrderBody } from '../index.js';
import { defineContract } from './define.js';

export const storeContract = defineContract({
  'GET /v1/store_items': { reply: StoreItemList },
  'GET /v1/store_items/{id}': { params: IdParams, reply: StoreItem },
  'GET /v1/store_orders/agent_info': { reply: AgentInfo },
  'POST /v1/store_orders': { body: StoreOrderBody, reply: StoreOrder },
});
