/** push-sender's entry: `tsx src/push-sender.ts` locally, `node dist/push-sender.mjs` in the image. */
import { runService } from '@crewswap/kit';
import { pushSenderConfigSchema } from './config';
import { createPushSender } from './push/push-sender-app';

await runService(pushSenderConfigSchema, createPushSender);
