import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { AgreementStatus, ProposalStats, ProposalStatus, SwapAgreement, SwapProposal, SwapProposalView, SwapSide, Trip } from '@crewswap/proto';
import type { Constraint } from '../domain/swap-rule';
import { constraintSql, type SideColumns } from './swap-rule-sql';

/** What must stay the same for a proposal on a trip to stay open: its flights, dates, route and aircraft. */
export function tripKey(trip: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'startDate' | 'endDate' | 'route' | 'aircraft'>): string {
  return [trip.flightNoStart, trip.flightNoEnd, trip.startDate, trip.endDate, trip.route, trip.aircraft ?? ''].join('|');
}

interface ProposalRow {
  id: string;
  mutual: boolean;
  status: ProposalStatus;
  proposer_id: string;
  proposer_trip_id: string;
  owner_id: string;
  owner_trip_id: string;
  proposer: SwapSide;
  owner: SwapSide;
  note: string | null;
  reason: string | null;
  counter_of: string | null;
  agreement_id: string | null;
  created_at: Date;
  decided_at: Date | null;
}

interface AgreementRow {
  id: string;
  proposal_id: string;
  status: AgreementStatus;
  proposer_id: string;
  owner_id: string;
  proposer: SwapSide;
  owner: SwapSide;
  agreed_at: Date;
  closed_at: Date | null;
  closed_by: string | null;
}

export interface NewProposal {
  id: string;
  proposer: SwapSide;
  owner: SwapSide;
  note: string | null;
  counterOf: string | null;
  mutual: boolean;
  at: Date;
}

/** A live trip in the read model and its pilot, as the swap rule reads the side it looks for. */
const TRIP_SIDE: SideColumns = {
  pilotId: 't.pilot_id',
  rank: 'p.rank',
  fleet: 'p.fleet',
  aircraft: 't.aircraft',
  training: 't.training',
  ltcCaptain: "(p.rank = 'CP' AND p.ltc)",
  standby: 't.is_standby',
  startDate: 't.start_date',
  endDate: 't.end_date',
};

const OPEN = 'open';
/** Agreements that hold their trips. */
const LIVE_AGREEMENT: AgreementStatus[] = ['agreed', 'approved'];

export function createProposalRepository(db: Db) {
  return {
    /** Whether this trip is the other side of a swap the rule allows (constraint from the known side). */
    async fits(constraint: Constraint, tripId: string, ex: Executor = db): Promise<boolean> {
      const rule = constraintSql(TRIP_SIDE, constraint);
      const result = await ex.raw<{ rows: unknown[] }>(
        `SELECT 1 FROM trips t JOIN pilots p ON p.id = t.pilot_id WHERE t.id = :trip_id AND NOT t.deleted AND ${rule.where}`,
        { ...rule.bindings, trip_id: tripId },
      );
      return result.rows.length > 0;
    },

    async insert(proposal: NewProposal, ex: Executor = db): Promise<SwapProposal> {
      const { proposer, owner } = proposal;
      const [row] = await ex('proposals')
        .insert({
          id: proposal.id,
          status: OPEN,
          proposer_id: proposer.pilot.id,
          proposer_trip_id: proposer.trip.id,
          owner_id: owner.pilot.id,
          owner_trip_id: owner.trip.id,
          proposer: JSON.stringify(proposer),
          owner: JSON.stringify(owner),
          proposer_trip_key: tripKey(proposer.trip),
          owner_trip_key: tripKey(owner.trip),
          starts_on: proposer.trip.startDate < owner.trip.startDate ? proposer.trip.startDate : owner.trip.startDate,
          note: proposal.note,
          counter_of: proposal.counterOf,
          mutual: proposal.mutual,
          rank: proposer.pilot.rank,
          fleet: proposer.pilot.fleet,
          created_at: proposal.at,
        })
        .returning('*');
      return toProposal(row);
    },

    async find(id: string, ex: Executor = db, lock = false): Promise<SwapProposal & { proposerId: string; ownerId: string } | undefined> {
      const query = ex('proposals').where({ id }).first();
      const row: ProposalRow | undefined = lock ? await query.forUpdate() : await query;
      return row && { ...toProposal(row), proposerId: row.proposer_id, ownerId: row.owner_id };
    },

    async setStatus(id: string, change: { status: ProposalStatus; reason?: string | null; agreementId?: string; at: Date }, ex: Executor = db): Promise<SwapProposal> {
      const [row] = await ex('proposals')
        .where({ id })
        .update({
          status: change.status,
          decided_at: change.at,
          ...(change.reason !== undefined ? { reason: change.reason } : {}),
          ...(change.agreementId ? { agreement_id: change.agreementId } : {}),
        })
        .returning('*');
      return toProposal(row);
    },

    /**
     * Closes the open proposals that give or ask for any of these trips (but `except`), locked in
     * id order, and answers them as they now are.
     */
    async closeOpenOnTrips(tripIds: string[], change: { status: ProposalStatus; reason: string; at: Date; except?: string }, ex: Executor = db): Promise<SwapProposal[]> {
      if (tripIds.length === 0) return [];
      const rows: ProposalRow[] = await ex('proposals')
        .where({ status: OPEN })
        .andWhere((q) => q.whereIn('owner_trip_id', tripIds).orWhereIn('proposer_trip_id', tripIds))
        .modify((q) => (change.except ? q.whereNot({ id: change.except }) : q))
        .orderBy('id')
        .forUpdate();
      if (rows.length === 0) return [];
      const updated: ProposalRow[] = await ex('proposals')
        .whereIn('id', rows.map((row) => row.id))
        .update({ status: change.status, reason: change.reason, decided_at: change.at })
        .returning('*');
      return updated.map(toProposal);
    },

    /** Open proposals on a trip whose flights, dates, route or aircraft are no longer `key`. */
    async openOnChangedTrip(tripId: string, key: string | null, ex: Executor = db): Promise<string[]> {
      const rows: { id: string }[] = await ex('proposals')
        .where({ status: OPEN })
        .andWhere((q) =>
          q
            .where((w) => w.where({ owner_trip_id: tripId }).modify((m) => (key === null ? m : m.whereNot({ owner_trip_key: key }))))
            .orWhere((w) => w.where({ proposer_trip_id: tripId }).modify((m) => (key === null ? m : m.whereNot({ proposer_trip_key: key })))),
        )
        .select('id');
      return rows.map((row) => row.id);
    },

    /** Open proposals one of whose trips starts on or before `date`. */
    async openStartedBy(date: string, ex: Executor = db): Promise<string[]> {
      const rows: { id: string }[] = await ex('proposals').where({ status: OPEN }).andWhere('starts_on', '<=', date).select('id');
      return rows.map((row) => row.id);
    },

    async expire(ids: string[], reason: string, at: Date, ex: Executor = db): Promise<SwapProposal[]> {
      if (ids.length === 0) return [];
      const rows: ProposalRow[] = await ex('proposals').whereIn('id', ids).andWhere({ status: OPEN }).update({ status: 'expired', reason, decided_at: at }).returning('*');
      return rows.map(toProposal);
    },

    /** Proposals the pilot received (their offered trip) or sent, newest first, each with whether it clashes. */
    async listFor(pilotId: string, filter: { role?: 'received' | 'sent'; status?: ProposalStatus }, ex: Executor = db): Promise<SwapProposalView[]> {
      const result = await ex.raw<{ rows: (ProposalRow & { clashes: boolean })[] }>(
        `SELECT pr.*,
                (pr.owner_id = :pilot AND EXISTS (
                   SELECT 1 FROM trips t
                    WHERE t.pilot_id = :pilot AND NOT t.deleted AND t.id <> pr.owner_trip_id
                      AND t.start_date <= CAST(pr.proposer->'trip'->>'endDate' AS date)
                      AND t.end_date >= CAST(pr.proposer->'trip'->>'startDate' AS date))) AS clashes
           FROM proposals pr
          WHERE ((:role = 'received' OR :role = 'any') AND pr.owner_id = :pilot
                 OR (:role = 'sent' OR :role = 'any') AND pr.proposer_id = :pilot)
            AND (CAST(:status AS text) IS NULL OR pr.status = :status)
          ORDER BY pr.created_at DESC, pr.id
          LIMIT 500`,
        { pilot: pilotId, role: filter.role ?? 'any', status: filter.status ?? null },
      );
      return result.rows.map((row) => ({ ...toProposal(row), role: row.owner_id === pilotId ? 'received' : 'sent', clashes: row.clashes }));
    },

    /**
     * Makes the agreement and claims both trips for it. A trip already in a live agreement makes
     * the insert fail with a unique violation on agreement_trips_pkey.
     */
    async insertAgreement(agreement: { id: string; proposal: SwapProposal; at: Date }, ex: Executor = db): Promise<SwapAgreement> {
      const { proposal } = agreement;
      const [row] = await ex('agreements')
        .insert({
          id: agreement.id,
          proposal_id: proposal.id,
          status: 'agreed',
          proposer_id: proposal.proposer.pilot.id,
          owner_id: proposal.owner.pilot.id,
          proposer: JSON.stringify(proposal.proposer),
          owner: JSON.stringify(proposal.owner),
          rank: proposal.proposer.pilot.rank,
          fleet: proposal.proposer.pilot.fleet,
          agreed_at: agreement.at,
        })
        .returning('*');
      await ex('agreement_trips').insert([
        { trip_id: proposal.proposer.trip.id, agreement_id: agreement.id },
        { trip_id: proposal.owner.trip.id, agreement_id: agreement.id },
      ]);
      return toAgreement(row);
    },

    async tripsTaken(tripIds: string[], ex: Executor = db): Promise<boolean> {
      const row = await ex('agreement_trips').whereIn('trip_id', tripIds).first();
      return row !== undefined;
    },

    async findAgreement(id: string, ex: Executor = db, lock = false): Promise<SwapAgreement | undefined> {
      const query = ex('agreements').where({ id }).first();
      const row: AgreementRow | undefined = lock ? await query.forUpdate() : await query;
      return row && toAgreement(row);
    },

    /** Closes an agreement; a cancelled or refused swap frees its trips. */
    async closeAgreement(id: string, change: { status: AgreementStatus; by: string; at: Date }, ex: Executor = db): Promise<SwapAgreement> {
      const [row] = await ex('agreements').where({ id }).update({ status: change.status, closed_at: change.at, closed_by: change.by }).returning('*');
      if (!LIVE_AGREEMENT.includes(change.status)) await ex('agreement_trips').where({ agreement_id: id }).delete();
      return toAgreement(row);
    },

    async agreementsOf(pilotId: string, ex: Executor = db): Promise<SwapAgreement[]> {
      const rows: AgreementRow[] = await ex('agreements')
        .where({ proposer_id: pilotId })
        .orWhere({ owner_id: pilotId })
        .orderBy([{ column: 'agreed_at', order: 'desc' }, 'id'])
        .limit(500);
      return rows.map(toAgreement);
    },

    /** The cleanup: a trip purged takes its proposals and agreements with it. */
    async pruneTrip(tripId: string, ex: Executor = db): Promise<void> {
      await ex('proposals').where({ owner_trip_id: tripId }).orWhere({ proposer_trip_id: tripId }).delete();
      const agreements: { id: string }[] = await ex('agreements')
        .whereRaw(`proposer->'trip'->>'id' = ? OR owner->'trip'->>'id' = ?`, [tripId, tripId])
        .select('id');
      if (agreements.length > 0) await ex('agreements').whereIn('id', agreements.map((a) => a.id)).delete();
    },

    /** The admin dashboard: by the proposer's fleet and rank since `since`. */
    async stats(since: Date, ex: Executor = db): Promise<ProposalStats['rows']> {
      const result = await ex.raw<{ rows: { fleet: string; rank: string; made: string; agreed: string; cancelled: string; approved: string }[] }>(
        `SELECT fleet, rank, sum(made) AS made, sum(agreed) AS agreed, sum(cancelled) AS cancelled, sum(approved) AS approved
           FROM (SELECT fleet, rank, 1 AS made, 0 AS agreed, 0 AS cancelled, 0 AS approved FROM proposals WHERE created_at >= :since
                 UNION ALL
                 SELECT fleet, rank, 0, 1, (status = 'cancelled')::int, (status = 'approved')::int FROM agreements WHERE agreed_at >= :since) counted
          GROUP BY fleet, rank
          ORDER BY fleet, rank`,
        { since },
      );
      return result.rows.map((row) => ({ fleet: row.fleet, rank: row.rank, made: Number(row.made), agreed: Number(row.agreed), cancelled: Number(row.cancelled), approved: Number(row.approved) }));
    },
  };
}
export type ProposalRepository = ReturnType<typeof createProposalRepository>;

const toProposal = (row: ProposalRow): SwapProposal => ({
  ...fromRow(row, ['id', 'status', 'proposer', 'owner', 'note', 'reason', 'counter_of', 'agreement_id', 'mutual']),
  createdAt: row.created_at.toISOString(),
  decidedAt: row.decided_at?.toISOString() ?? null,
});

const toAgreement = (row: AgreementRow): SwapAgreement => ({
  ...fromRow(row, ['id', 'proposal_id', 'status', 'proposer', 'owner', 'closed_by']),
  agreedAt: row.agreed_at.toISOString(),
  closedAt: row.closed_at?.toISOString() ?? null,
});
