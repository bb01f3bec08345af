import type { Db, Executor } from '@crewswap/kit';
import type { AgreementKind, AgreementStatus, Fleet, ProposerSide, SwapAgreement, SwapSide, Trip, TripMove } from '@crewswap/proto';

/** An agreement as the crewing desk reads it: the agreement, its kind and the proposer's note. */
export interface DeskAgreement {
  agreement: SwapAgreement;
  note: string | null;
}

interface DeskRow {
  id: string;
  proposal_id: string;
  status: AgreementStatus;
  kind: AgreementKind;
  proposer: ProposerSide;
  owner: SwapSide;
  reason: string | null;
  note: string | null;
  agreed_at: Date;
  closed_at: Date | null;
  closed_by: string | null;
}

/** A trip of an agreement as swaps' read model holds it now (absent when pruned). */
export interface CurrentTrip {
  id: string;
  pilotId: string;
  deleted: boolean;
  trip: Trip;
}

/** Would `pilotId`, taking `incoming` and giving `leaving`, hold another trip on those days? */
export interface OverlapQuestion {
  pilotId: string;
  incoming: Trip;
  leaving: string | null;
}

// `kind` is B's column (0014_giveaways, default 'swap'): read through to_jsonb so this works before it exists.
const DESK_SELECT = `
  SELECT a.id, a.proposal_id, a.status, a.proposer, a.owner, a.reason, a.agreed_at, a.closed_at, a.closed_by,
         COALESCE(to_jsonb(a)->>'kind', 'swap') AS kind, pr.note
    FROM agreements a
    LEFT JOIN proposals pr ON pr.id = a.proposal_id`;

const DESK_STATUSES: Record<'pending' | 'approved' | 'refused', AgreementStatus> = { pending: 'agreed', approved: 'approved', refused: 'refused' };

export function createSwapRequestRepository(db: Db) {
  return {
    /** Pending requests oldest first, then decided ones in the order they were decided (newest last). */
    async list(filter: { status?: keyof typeof DESK_STATUSES; fleet?: Fleet }, ex: Executor = db): Promise<DeskAgreement[]> {
      const statuses = filter.status ? [DESK_STATUSES[filter.status]] : Object.values(DESK_STATUSES);
      const result = await ex.raw<{ rows: DeskRow[] }>(
        `${DESK_SELECT}
          WHERE a.status = ANY(CAST(:statuses AS text[]))
            AND (CAST(:fleet AS text) IS NULL OR a.proposer->'pilot'->>'fleet' = :fleet OR a.owner->'pilot'->>'fleet' = :fleet)
          ORDER BY a.status <> 'agreed', CASE WHEN a.status = 'agreed' THEN a.agreed_at ELSE a.closed_at END, a.id
          LIMIT 500`,
        { statuses, fleet: filter.fleet ?? null },
      );
      return result.rows.map(toDeskAgreement);
    },

    /** The agreement, locked until the transaction ends: two decisions on it run one after the other. */
    async lock(id: string, trx: Executor): Promise<DeskAgreement | undefined> {
      const result = await trx.raw<{ rows: DeskRow[] }>(`${DESK_SELECT} WHERE a.id = ? FOR UPDATE OF a`, [id]);
      return result.rows[0] && toDeskAgreement(result.rows[0]);
    },

    /**
     * Records crewing's decision, only while the agreement is still agreed (undefined otherwise).
     * A refused swap frees its trips; an approved one keeps them claimed.
     */
    async decide(id: string, decision: { status: 'approved' | 'refused'; by: string; at: Date; reason: string | null; moves: TripMove[] | null }, trx: Executor): Promise<DeskAgreement | undefined> {
      const updated = await trx('agreements')
        .where({ id, status: 'agreed' })
        .update({ status: decision.status, closed_by: decision.by, closed_at: decision.at, reason: decision.reason, moves: decision.moves && JSON.stringify(decision.moves) })
        .returning('id');
      if (updated.length === 0) return undefined;
      if (decision.status === 'refused') await trx('agreement_trips').where({ agreement_id: id }).delete();
      return this.lock(id, trx);
    },

    /** The trips as the read model holds them now. */
    async currentTrips(tripIds: string[], ex: Executor = db): Promise<Map<string, CurrentTrip>> {
      const rows: { id: string; pilot_id: string; deleted: boolean; data: Trip | null }[] = await ex('trips').whereIn('id', tripIds).select('id', 'pilot_id', 'deleted', 'data');
      return new Map(rows.filter((row) => row.data).map((row) => [row.id, { id: row.id, pilotId: row.pilot_id, deleted: row.deleted, trip: row.data! }]));
    },

    /** For each question, the live trip of that pilot the incoming trip would overlap (null when none). */
    async overlaps(questions: OverlapQuestion[], ex: Executor = db): Promise<(Trip | null)[]> {
      if (questions.length === 0) return [];
      const result = await ex.raw<{ rows: { n: string; clash: Trip | null }[] }>(
        `SELECT q.n,
                (SELECT x.data FROM trips x
                  WHERE x.pilot_id = q.pilot AND NOT x.deleted AND x.id <> q.incoming AND x.id IS DISTINCT FROM q.leaving
                    AND x.start_date <= q.to_date AND x.end_date >= q.from_date
                  ORDER BY x.start_date, x.id LIMIT 1) AS clash
           FROM unnest(CAST(:pilots AS uuid[]), CAST(:incoming AS uuid[]), CAST(:leaving AS uuid[]), CAST(:froms AS date[]), CAST(:tos AS date[]))
                WITH ORDINALITY AS q(pilot, incoming, leaving, from_date, to_date, n)
          ORDER BY q.n`,
        {
          pilots: questions.map((q) => q.pilotId),
          incoming: questions.map((q) => q.incoming.id),
          leaving: questions.map((q) => q.leaving),
          froms: questions.map((q) => q.incoming.startDate),
          tos: questions.map((q) => q.incoming.endDate),
        },
      );
      return result.rows.map((row) => row.clash);
    },

    /** Closes every open proposal on these trips with `reason`; answers their ids. */
    async closeOpenProposalsOn(tripIds: string[], change: { reason: string; at: Date }, trx: Executor): Promise<string[]> {
      const rows: { id: string }[] = await trx('proposals')
        .where({ status: 'open' })
        .andWhere((q) => q.whereIn('owner_trip_id', tripIds).orWhereIn('proposer_trip_id', tripIds))
        .update({ status: 'declined', reason: change.reason, decided_at: change.at })
        .returning('id');
      return rows.map((row) => row.id);
    },
  };
}
export type SwapRequestRepository = ReturnType<typeof createSwapRequestRepository>;

function toDeskAgreement(row: DeskRow): DeskAgreement {
  return {
    note: row.note,
    agreement: {
      id: row.id,
      proposalId: row.proposal_id,
      status: row.status,
      kind: row.kind,
      reason: row.reason,
      proposer: row.proposer,
      owner: row.owner,
      agreedAt: row.agreed_at.toISOString(),
      closedAt: row.closed_at?.toISOString() ?? null,
      closedBy: row.closed_by,
    },
  };
}
