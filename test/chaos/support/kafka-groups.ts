import { Kafka, logLevel } from 'kafkajs';

import { chaosEnv } from './chaos-env';

const kafka = (): Kafka =>
  new Kafka({ clientId: 'onramp-chaos', brokers: chaosEnv.kafkaBrokers(), logLevel: logLevel.NOTHING });

// Rewinds a stopped service's consumer group to the start of every topic it reads: on restart it
// receives every event again, as after an offset loss. Returns the topics rewound.
export async function rewindGroup(groupId: string): Promise<string[]> {
  const admin = kafka().admin();
  await admin.connect();
  try {
    const topics = (await admin.fetchOffsets({ groupId })).map((t) => t.topic);
    for (const topic of topics) await admin.resetOffsets({ groupId, topic, earliest: true });
    return topics;
  } finally {
    await admin.disconnect();
  }
}

// Members of a stable consumer group (0 while it rebalances).
export async function stableGroupMembers(groupId: string): Promise<number> {
  const admin = kafka().admin();
  await admin.connect();
  try {
    const [group] = (await admin.describeGroups([groupId])).groups;
    return group?.state === 'Stable' ? group.members.length : 0;
  } finally {
    await admin.disconnect();
  }
}

// Records of `topics` the group has not yet committed.
export async function groupLag(groupId: string, topics: string[]): Promise<bigint> {
  const admin = kafka().admin();
  await admin.connect();
  try {
    let lag = 0n;
    for (const topic of topics) {
      const ends = await admin.fetchTopicOffsets(topic);
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      for (const p of ends) {
        const at = BigInt(committed?.partitions.find((c) => c.partition === p.partition)?.offset ?? '-1');
        lag += BigInt(p.high) - (at < 0n ? BigInt(p.low) : at);
      }
    }
    return lag;
  } finally {
    await admin.disconnect();
  }
}
