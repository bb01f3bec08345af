import { fromRow, type Db, type Executor, type OutboxRow } from '@crewswap/kit';
import type { AgreementKind, AgreementStatus, OfferType, ProposalStats, ProposalStatus, ProposerSide, SwapAgreement, SwapProposal, SwapProposalView, SwapSide, Trip } from '@crewswap/proto';
import type { Constraint, DayRange } from '../rules/swap-rule';
import { tripKey } from '../rules/trip-key';
import { toPilotRecord, type PilotRecord, type PilotRowOut } from './read-model';
import { constraintSql, ltcCaptainSql, type SideColumns } from './swap-rule-sql';

interface ProposalRow {
  id: string;
  mutual: boolean;
  status: ProposalStatus;
  proposer_id: string;
  /** Null for a pick-up (the proposer gives no trip). */
  proposer_trip_id: string | null;
  owner_id: string;
  owner_trip_id: string;
  proposer: ProposerSide;
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
  kind: AgreementKind;
  reason: string | null;
  proposer_id: string;
  owner_id: string;
  proposer: ProposerSide;
  owner: SwapSide;
  agreed_at: Date;
  closed_at: Date | null;
  closed_by: string | null;
}

export interface NewProposal {
  id: string;
  /** A pick-up's proposer gives no trip (null). */
  proposer: ProposerSide;
  owner: SwapSide;
  note: string | null;
  counterOf: string | null;
  mutual: boolean;
  at: Date;
}

/** A live trip of a swap and its pilot, with what proposing asks of them. */
export interface SideRow {
  trip: Trip;
  isSwappable: boolean;
  offerType: OfferType;
  /** Undefined where the pilot is not known with a profile. */
  record: PilotRecord | undefined;
  /** In a live agreement already. */
  taken: boolean;
  /** The days of the pilot's other trips, for Mutual. */
  otherTrips: DayRange[];
}

/** A live trip in the read model and its pilot, as the swap rule reads the side it looks for. */
export const TRIP_SIDE: SideColumns = {
  pilotId: 't.pilot_id',
  rank: 'p.rank',
  fleet: 'p.fleet',
  aircraft: 't.aircraft',
  training: 't.training',
  ltcCaptain: ltcCaptainSql('p'),
  standby: 't.is_standby',
  startDate: 't.start_date',
  endDate: 't.end_date',
};

const OPEN = 'open';
/** Agreements that hold their trips. */
const LIVE_AGREEMENT: AgreementStatus[] = ['agreed', 'approved'];

export function createProposalRepository(db: Db) {
  return {
    /**
     * Live trips among these with their pilots (a trip whose pilot is unknown is left out), and the
     * swap_search_days setting: both sides of a swap in one round trip.
     */
    async sidesOf(tripIds: string[], ex: Executor = db): Promise<{ sides: SideRow[]; setting: string | undefined }> {
      const result = await ex.raw<{ rows: (PilotRowOut & { trip: Trip; is_swappable: boolean; offer_type: OfferType; taken: boolean; setting: string | null; other_trips: [string, string][] })[] }>(SIDES_SQL, [tripIds]);
      const sides = result.rows.map((row) => ({
        trip: row.trip,
        isSwappable: row.is_swappable,
        offerType: row.offer_type,
        record: toPilotRecord(row),
        taken: row.taken,
        otherTrips: row.other_trips.map(([from, to]) => ({ from, to })),
      }));
      return { sides, setting: result.rows[0]?.setting ?? undefined };
    },

    /**
     * Inserts an open proposal if its owner's trip is the other side of a swap the rule allows
     * (`fits`: the constraint from the proposer's side), with the outbox rows `events` makes of it
     * (published once `written`), in one statement: one round trip where the check, the insert and
     * the events took three. Undefined, and nothing written, when the trips do not fit.
     */
    async insertIfFits(input: NewProposal, fits: Constraint, events: (proposal: SwapProposal) => OutboxRow[], ex: Executor = db): Promise<SwapProposal | undefined> {
      const { proposer, owner } = input;
      const row: ProposalRow = {
        id: input.id,
        status: OPEN,
        proposer_id: proposer.pilot.id,
        proposer_trip_id: proposer.trip?.id ?? null,
        owner_id: owner.pilot.id,
        owner_trip_id: owner.trip.id,
        proposer,
        owner,
        note: input.note,
        reason: null,
        counter_of: input.counterOf,
        agreement_id: null,
        mutual: input.mutual,
        created_at: input.at,
        decided_at: null,
      };
      const proposal = toProposal(row);
      const columns = {
        ...row,
        proposer: JSON.stringify(proposer),
        owner: JSON.stringify(owner),
        proposer_trip_key: proposer.trip && tripKey(proposer.trip),
        owner_trip_key: tripKey(owner.trip),
        starts_on: proposer.trip && proposer.trip.startDate < owner.trip.startDate ? proposer.trip.startDate : owner.trip.startDate,
        rank: proposer.pilot.rank,
        fleet: proposer.pilot.fleet,
      };
      const rule = constraintSql(TRIP_SIDE, fits);
      const names = Object.keys(columns);
      const result = await ex.raw<{ rows: unknown[] }>(
        `WITH made AS (
           INSERT INTO proposals (${names.map((name) => `"${name}"`).join(', ')})
           SELECT ${names.map((name) => `:new_${name}`).join(', ')}
            WHERE EXISTS (SELECT 1 FROM trips t JOIN pilots p ON p.id = t.pilot_id WHERE t.id = :new_owner_trip_id AND NOT t.deleted AND ${rule.where})
           RETURNING id)
         ${INSERT_OUTBOX_ROWS}`,
        { ...rule.bindings, ...Object.fromEntries(names.map((name) => [`new_${name}`, columns[name as keyof typeof columns]])), events: JSON.stringify(events(proposal)) },
      );
      return result.rows.length > 0 ? proposal : undefined;
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
     * Locks both trips of the owner's proposal, the lower id first, as every accept does: two
     * accepts that share a trip run one after the other (never a deadlock), and the second finds
     * the trip taken. Then locks the proposal and answers it as it is now, with what the read model
     * says of both trips (undefined when the proposal is not this owner's), all in one round trip.
     * The advisory locks are taken as the row is read, before FOR UPDATE locks it; a proposal an
     * accept holding them has changed meanwhile is answered as that accept left it (FOR UPDATE reads
     * the latest version). A proposal's trips never change, so they are read before the locks are held.
     */
    async lockOpen(id: string, ownerId: string, trx: Executor): Promise<(TripStates & { proposal: SwapProposal & { proposerId: string; ownerId: string } }) | undefined> {
      // A target list is evaluated left to right: the lower id is locked first.
      // A pick-up has no proposer trip: LEAST and GREATEST skip the null, and the second lock of the owner's trip is the first held again.
      const result = await trx.raw<{ rows: (TripStatesRow & ProposalRow)[] }>(
        `SELECT pg_advisory_xact_lock(hashtextextended(CAST(LEAST(pr.proposer_trip_id, pr.owner_trip_id) AS text), 37)) AS lower,
                pg_advisory_xact_lock(hashtextextended(CAST(GREATEST(pr.proposer_trip_id, pr.owner_trip_id) AS text), 37)) AS higher,
                pr.*,
                ${TRIP_STATES_SQL}
            FOR UPDATE OF pr`,
        [id, ownerId],
      );
      const row = result.rows[0];
      return row && { ...toTripStates(row), proposal: { ...toProposal(row), proposerId: row.proposer_id, ownerId: row.owner_id } };
    },

    /** What the read model says now of the trips of a proposal. */
    async tripStates(id: string, ex: Executor = db): Promise<TripStates | undefined> {
      const result = await ex.raw<{ rows: TripStatesRow[] }>(`SELECT ${TRIP_STATES_SQL}`, [id, null]);
      return result.rows[0] && toTripStates(result.rows[0]);
    },

    /**
     * Withdraws the proposer's proposal if it is still open, in one conditional statement: an
     * accept that locked it first has made it accepted by then, and this changes nothing
     * (undefined), so exactly one of the two wins.
     */
    async cancelOpen(id: string, proposerId: string, at: Date, ex: Executor): Promise<SwapProposal | undefined> {
      const [row]: ProposalRow[] = await ex('proposals').where({ id, proposer_id: proposerId, status: OPEN }).update({ status: 'cancelled', decided_at: at }).returning('*');
      return row && toProposal(row);
    },

    /**
     * Agrees the swap of this open proposal (locked by the caller) in one statement: the
     * agreement, both trips claimed for it (a trip already in a live agreement fails it with a
     * unique violation on agreement_trips_pkey), the proposal accepted, every other open proposal
     * on either trip declined with `declineReason` (locked in id order), and the outbox rows
     * `events` makes of the agreement and the accepted proposal. Answers the declined proposals too.
     */
    async agree(
      input: { proposal: SwapProposal; agreementId: string; at: Date; declineReason: string },
      events: (agreed: { proposal: SwapProposal; agreement: SwapAgreement }) => OutboxRow[],
      trx: Executor,
    ): Promise<{ proposal: SwapProposal; agreement: SwapAgreement; declined: SwapProposal[] }> {
      const { proposal: open, agreementId, at } = input;
      const proposal: SwapProposal = { ...open, status: 'accepted', agreementId, decidedAt: at.toISOString() };
      const agreement = toAgreement({
        id: agreementId,
        proposal_id: open.id,
        status: 'agreed',
        kind: open.proposer.trip ? 'swap' : 'giveaway',
        reason: null,
        proposer_id: open.proposer.pilot.id,
        owner_id: open.owner.pilot.id,
        proposer: open.proposer,
        owner: open.owner,
        agreed_at: at,
        closed_at: null,
        closed_by: null,
      });
      // A give-away claims the one trip that moves.
      const tripIds = [open.proposer.trip?.id, open.owner.trip.id].filter((id): id is string => id !== undefined).sort();
      const result = await trx.raw<{ rows: ProposalRow[] }>(
        `WITH agreement AS (
           INSERT INTO agreements (id, proposal_id, status, kind, proposer_id, owner_id, proposer, owner, rank, fleet, agreed_at)
           SELECT :agreement, id, 'agreed', :kind, proposer_id, owner_id, proposer, owner, rank, fleet, :at FROM proposals WHERE id = :proposal
           RETURNING id),
         claimed AS (
           INSERT INTO agreement_trips (trip_id, agreement_id)
           SELECT trip_id, agreement.id FROM agreement, unnest(CAST(:trips AS uuid[])) AS trip_id),
         accepted AS (
           UPDATE proposals SET status = 'accepted', decided_at = :at, agreement_id = :agreement WHERE id = :proposal),
         made AS (SELECT id FROM agreement),
         events AS (
           ${INSERT_OUTBOX_ROWS}),
         others AS (
           SELECT id FROM proposals
            WHERE status = :open AND (owner_trip_id = ANY(CAST(:trips AS uuid[])) OR proposer_trip_id = ANY(CAST(:trips AS uuid[]))) AND id <> :proposal
            ORDER BY id
              FOR UPDATE)
         UPDATE proposals SET status = 'declined', reason = :reason, decided_at = :at
          WHERE id IN (SELECT id FROM others)
         RETURNING *`,
        { agreement: agreementId, proposal: open.id, kind: agreement.kind, at, trips: tripIds, open: OPEN, reason: input.declineReason, events: JSON.stringify(events({ proposal, agreement })) },
      );
      return { proposal, agreement, declined: result.rows.sort((x, y) => (x.id < y.id ? -1 : 1)).map(toProposal) };
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

    /** The agreement awaiting crewing that holds this trip, locked; undefined when there is none. */
    async agreedOnTrip(tripId: string, ex: Executor): Promise<SwapAgreement | undefined> {
      const row: AgreementRow | undefined = await ex('agreements')
        .where({ status: 'agreed' })
        .whereIn('id', ex('agreement_trips').where({ trip_id: tripId }).select('agreement_id'))
        .first()
        .forUpdate();
      return row && toAgreement(row);
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

/**
 * Outbox rows given as JSON text (OutboxRow[], bound as :events), inserted in their order so that they publish in it,
 * once for each row of `made` (none when the change was not made). Answers their ids.
 */
const INSERT_OUTBOX_ROWS = `
  INSERT INTO outbox (id, subject, envelope, trace_context)
  SELECT event.id, event.subject, CAST(event.envelope AS jsonb), CAST(event.trace_context AS jsonb)
    FROM made, ROWS FROM (jsonb_to_recordset(CAST(:events AS jsonb)) AS (id uuid, subject text, envelope text, trace_context text)) WITH ORDINALITY AS event(id, subject, envelope, trace_context, n)
   ORDER BY event.n
  RETURNING outbox.id`;

/** Whether each trip of a proposal is still in the read model (not deleted), and whether the owner's is offered. */
export interface TripStates {
  proposerTripLive: boolean;
  ownerTripLive: boolean;
  ownerTripOffered: boolean;
}
type TripStatesRow = { proposer_trip_live: boolean; owner_trip_live: boolean; owner_trip_offered: boolean };
const toTripStates = (row: TripStatesRow): TripStates => ({ proposerTripLive: row.proposer_trip_live, ownerTripLive: row.owner_trip_live, ownerTripOffered: row.owner_trip_offered });

/** The select list and source of TripStates for proposal ? (of owner ?, or of anyone when null); a pruned tombstone is a trip gone too. */
const TRIP_STATES_SQL = `
         (pr.proposer_trip_id IS NULL OR COALESCE(NOT pt.deleted, false)) AS proposer_trip_live,
         COALESCE(NOT ot.deleted, false) AS owner_trip_live,
         COALESCE(ot.is_swappable AND NOT ot.deleted, false) AS owner_trip_offered
    FROM proposals pr
    LEFT JOIN trips pt ON pt.id = pr.proposer_trip_id
    LEFT JOIN trips ot ON ot.id = pr.owner_trip_id
   WHERE pr.id = ? AND pr.owner_id = COALESCE(CAST(? AS uuid), pr.owner_id)`;

/** sidesOf: a live trip, its pilot, whether it is taken, the pilot's other trips and the setting. */
const SIDES_SQL = `
  SELECT t.data AS trip, t.is_swappable, t.offer_type, p.id, p.rank, p.fleet, p.ltc, p.search_day_range, p.deleted, p.contact,
         EXISTS (SELECT 1 FROM agreement_trips a WHERE a.trip_id = t.id) AS taken,
         (SELECT value FROM settings WHERE key = 'swap_search_days') AS setting,
         (SELECT COALESCE(json_agg(json_build_array(x.start_date, x.end_date) ORDER BY x.start_date, x.id), '[]')
            FROM trips x
           WHERE x.pilot_id = p.id AND NOT x.deleted AND x.id <> t.id AND x.start_date IS NOT NULL AND x.end_date IS NOT NULL) AS other_trips
    FROM trips t
    JOIN pilots p ON p.id = t.pilot_id
   WHERE t.id = ANY(CAST(? AS uuid[])) AND NOT t.deleted`;

const toProposal = (row: ProposalRow): SwapProposal => ({
  ...fromRow(row, ['id', 'status', 'proposer', 'owner', 'note', 'reason', 'counter_of', 'agreement_id', 'mutual']),
  createdAt: row.created_at.toISOString(),
  decidedAt: row.decided_at?.toISOString() ?? null,
});

const toAgreement = (row: AgreementRow): SwapAgreement => ({
  ...fromRow(row, ['id', 'proposal_id', 'status', 'kind', 'reason', 'proposer', 'owner', 'closed_by']),
  agreedAt: row.agreed_at.toISOString(),
  closedAt: row.closed_at?.toISOString() ?? null,
});
