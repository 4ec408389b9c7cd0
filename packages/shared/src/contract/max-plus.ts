import { ManageableUsers, MaxPlusBulkBody, MaxPlusForUserBody, MaxPlusSubscribeBody, MaxPlusWrite } from '../index.js';
import { defineContract } from './define.js';

export const maxPlusContract = defineContract({
  'GET /v1/max_plus_subscriptions/manageable_users': { reply: ManageableUsers },
  'POST /v1/max_plus_subscriptions': { body: MaxPlusSubscribeBody, reply: MaxPlusWrite },
  'POST /v1/max_plus_subscriptions/cancel': { reply: MaxPlusWrite },
  'POST /v1/max_plus_subscriptions/cancel_for_user': { body: MaxPlusForUserBody, reply: MaxPlusWrite },
  'POST /v1/max_plus_subscriptions/bulk_subscribe': { body: MaxPlusBulkBody, reply: MaxPlusWrite },
});
