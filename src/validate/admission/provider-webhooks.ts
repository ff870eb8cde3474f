/**
 * The infrastructure providers' validating webhooks, the part decidable offline and most often hit: fields a cluster
 * cannot change once created and machine template fields the webhook refuses on create. Each provider's rules live
 * in their own module (capa-, capz-, capv-, capd-, capm3-webhooks.ts), each webhook naming the provider's file at the
 * release the corpus locks.
 */
import { capaWebhooks } from './capa-webhooks.js';
import { capvWebhooks } from './capv-webhooks.js';
import { capzMachineWebhooks } from './capz-machine-webhooks.js';
import { capzWebhooks } from './capz-webhooks.js';
import type { Webhook } from './webhook-fields.js';

export const providerWebhooks: readonly Webhook[] = [...capaWebhooks, ...capzWebhooks, ...capzMachineWebhooks, ...capvWebhooks];
