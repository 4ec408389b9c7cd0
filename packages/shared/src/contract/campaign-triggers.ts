import {
  CampaignTrigger,
  CampaignTriggerForm,
  CampaignTriggerList,
  CampaignTriggerListQuery,
  CampaignTriggerPatchForm,
  IdParams,
  NoContent,
  UsableTriggerList,
  UsableTriggersQuery,
} from '../index.js';
import { defineContract } from './define.js';

export const campaignTriggersContract = defineContract({
  'GET /v1/admin/campaign_triggers': { query: CampaignTriggerListQuery, reply: CampaignTriggerList },
  'POST /v1/admin/campaign_triggers': { form: CampaignTriggerForm, reply: CampaignTrigger },
  'GET /v1/admin/campaign_triggers/{id}': { params: IdParams, reply: CampaignTrigger },
  'PATCH /v1/admin/campaign_triggers/{id}': {
    params: IdParams,
    form: CampaignTriggerPatchForm,
    reply: CampaignTrigger,
  },
  'DELETE /v1/admin/campaign_triggers/{id}': { params: IdParams, reply: NoContent },
  'GET /v1/contacts/email_campaign_triggers': { query: UsableTriggersQuery, reply: UsableTriggerList },
  'GET /v1/contacts/sms_campaign_triggers': { query: UsableTriggersQuery, reply: UsableTriggerList },
});
