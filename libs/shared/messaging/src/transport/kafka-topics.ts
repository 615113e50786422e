import type { Admin } from 'kafkajs';

import { ALL_TOPICS, deadLetterTopic } from '@onramp/contracts';

// Every topic the platform uses: each event topic and its dead-letter topic.
export const PLATFORM_TOPICS: readonly string[] = ALL_TOPICS.flatMap((t) => [t, deadLetterTopic(t)]);

export interface ProvisionResult {
  created: string[];
  existing: { topic: string; partitions: number }[];
}

// Creates the missing topics with the given partitions and replication; leaves existing ones as they
// are (adding partitions would move keys to other partitions and break per-order ordering).
export async function provisionTopics(
  admin: Admin,
  opts: { partitions: number; replicationFactor: number },
): Promise<ProvisionResult> {
  const existingNames = new Set(await admin.listTopics());
  const missing = PLATFORM_TOPICS.filter((t) => !existingNames.has(t));
  if (missing.length > 0) await createRacing(admin, missing, opts);
  const present = PLATFORM_TOPICS.filter((t) => existingNames.has(t));
  const existing =
    present.length === 0
      ? []
      : (await admin.fetchTopicMetadata({ topics: present })).topics.map((t) => ({
          topic: t.name,
          partitions: t.partitions.length,
        }));
  return { created: missing, existing };
}

export async function missingTopics(admin: Admin): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  return PLATFORM_TOPICS.filter((t) => !existing.has(t));
}

// Another replica (or a test's observer) may be creating the same topics at the same moment: the
// broker then answers "already exists", or, while that creation settles, "does not host this
// topic-partition" to the leader wait. Both mean "someone else is creating it": wait until every
// topic is served instead of failing the boot.
async function createRacing(
  admin: Admin,
  topics: string[],
  opts: { partitions: number; replicationFactor: number },
): Promise<void> {
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: topics.map((topic) => ({
        topic,
        numPartitions: opts.partitions,
        replicationFactor: opts.replicationFactor,
      })),
    });
    return;
  } catch (err) {
    if (!/already exists|does not host this topic-partition/i.test(String(err))) throw err;
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      for (const topic of topics) await admin.fetchTopicOffsets(topic);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
