/** push-sender's entry: `tsx src/push-sender.ts` locally, `node dist/push-sender.mjs` in the image. */
import { loadConfig, runService } from '@crewswap/kit';
import { pushSenderConfigSchema } from './config';
import { createPushSender } from './push/push-sender-app';

void runService(async () => {
  const config = loadConfig(pushSenderConfigSchema);
  const sender = await createPushSender(config);
  return { ...sender, port: config.PORT, host: config.HOST };
});
