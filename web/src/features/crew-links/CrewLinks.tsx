import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { AutoComplete, Empty, Input, Select, Spin, Tag } from 'antd';
import { useState } from 'react';
import type { CrewLink, CrewLinkSuggestion } from '@crewswap/proto';
import { CREW_LINK_MESSAGES } from '@crewswap/proto/browser';
import { errorMessage } from '../../api/client';
import { useCheckAirport, useCrewLinks, useCrewLinkSuggestions } from '../../api/crewLinks';
import { AppModal } from '../../shared/AppModal';
import { useDebounced } from '../../shared/useDebounced';
import { NotKept, waitsForNetwork } from '../offline/NotKept';
import { CATEGORY_OPTIONS, CategoryIcon, categoryLabel } from './categories';
import { CrewLinkDetail } from './CrewLinkDetail';
import CrewLinkFormDialog from './CrewLinkFormDialog';
import { LikeButton } from './LikeButton';
import { UnknownAirportDialog } from './UnknownAirportDialog';

interface Props {
  /** The destinations to start filtered by (a trip's airports), e.g. ['SEA', 'LAX']. */
  initialDestinations?: readonly string[];
  onClose: () => void;
}

type Form = { mode: 'add' } | { mode: 'edit'; link: CrewLink } | null;

const SUGGESTION_KIND: Record<CrewLinkSuggestion['kind'], string> = {
  destination: 'Airport',
  category: 'Category',
  title: 'Title',
  location: 'Place',
};

/** The Crew Links list: search with suggestions, category and destination filters, cards with likes. */
export default function CrewLinks({ initialDestinations = [], onClose }: Props) {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('');
  const [destinations, setDestinations] = useState<readonly string[]>(initialDestinations);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [unknownCode, setUnknownCode] = useState<string | null>(null);
  const [detailId, setDetailId] = useState<string | null>(null);
  const [form, setForm] = useState<Form>(null);
  const settledSearch = useDebounced(search);
  const links = useCrewLinks({ search: settledSearch, category, destinations });
  const suggestions = useCrewLinkSuggestions(useDebounced(search, 150));
  const checkAirport = useCheckAirport();

  const addDestination = (next: string) => setDestinations((current) => (current.includes(next) ? current : [...current, next]));

  /** The airport field: exactly 3 letters; a code not in the IATA list may be added (Unknown Airport Code). */
  const applyCode = (typed: string) => {
    if (!/^[A-Z]{3}$/.test(typed)) {
      setCodeError(CREW_LINK_MESSAGES.airportCodeLetters);
      return;
    }
    checkAirport.mutate(typed, {
      onSuccess: ({ known }) => {
        if (!known) {
          setUnknownCode(typed);
          return;
        }
        addDestination(typed);
        setCode('');
      },
    });
  };

  const pickSuggestion = (value: string, kind: CrewLinkSuggestion['kind']) => {
    if (kind === 'destination') {
      addDestination(value);
      setSearch('');
    } else if (kind === 'category') {
      setCategory(value);
      setSearch('');
    } else {
      setSearch(value);
    }
  };

  const options = search.trim().length >= 2
    ? (suggestions.data ?? []).map((item) => ({
        value: `${item.kind}:${item.value}`,
        label: (
          <span className="suggestion">
            <span>{item.kind === 'category' ? categoryLabel(item.value) : item.value}</span>
            <span className="muted small">{SUGGESTION_KIND[item.kind]}</span>
          </span>
        ),
      }))
    : [];

  return (
    <>
      <AppModal
        title="Crew Links"
        onCancel={onClose}
        cancelText="Close"
        onOk={() => setForm({ mode: 'add' })}
        okText="Add Crew Link"
        okButtonProps={{ icon: <PlusOutlined /> }}
        width={960}
      >
        <div className="crew-links-filters">
          <AutoComplete
            className="crew-links-search"
            value={search}
            options={options}
            onChange={(value: string) => setSearch(value)}
            onSelect={(value: string) => {
              const [kind, ...rest] = value.split(':');
              pickSuggestion(rest.join(':'), kind as CrewLinkSuggestion['kind']);
            }}
          >
            <Input prefix={<SearchOutlined />} placeholder="Search crew links" aria-label="Search crew links" allowClear />
          </AutoComplete>
          <Select
            className="crew-links-category"
            aria-label="Category"
            placeholder="All categories"
            allowClear
            value={category || undefined}
            options={CATEGORY_OPTIONS}
            showSearch={{ optionFilterProp: 'title' }}
            onChange={(value?: string) => setCategory(value ?? '')}
          />
          <div className="crew-links-airport">
            <Input.Search
              aria-label="Airport code"
              placeholder="Airport"
              value={code}
              maxLength={3}
              enterButton="Filter"
              loading={checkAirport.isPending}
              status={codeError ? 'error' : undefined}
              onChange={(event) => {
                setCodeError(null);
                setCode(event.target.value.toUpperCase().replace(/[^A-Z]/g, '').slice(0, 3));
              }}
              onSearch={(value) => applyCode(value)}
            />
            {codeError && (
              <div className="field-error" role="alert">
                {codeError}
              </div>
            )}
          </div>
        </div>
        {destinations.length > 0 && (
          <div className="crew-links-destinations" aria-label="Destination filter">
            {destinations.map((destination) => (
              <Tag key={destination} closable color="purple" onClose={() => setDestinations((current) => current.filter((d) => d !== destination))}>
                {destination}
              </Tag>
            ))}
            <span className="muted small">and links for ALL destinations</span>
          </div>
        )}
        {links.isLoading && (
          <div className="page-center" role="status">
            <Spin />
          </div>
        )}
        {waitsForNetwork(links) && <NotKept what="Crew links" />}
        {links.isError && <p role="alert">Failed to load crew links: {errorMessage(links.error)}</p>}
        {links.data && links.data.length === 0 && <Empty description="No crew links found" />}
        {links.data && links.data.length > 0 && (
          <ul className="crew-link-list" aria-label="Crew links">
            {links.data.map((link) => (
              <li key={link.id}>
                <CrewLinkCard link={link} onOpen={() => setDetailId(link.id)} />
              </li>
            ))}
          </ul>
        )}
      </AppModal>
      {detailId && <CrewLinkDetail id={detailId} onClose={() => setDetailId(null)} onEdit={(link) => setForm({ mode: 'edit', link })} />}
      {form && (
        <CrewLinkFormDialog
          link={form.mode === 'edit' ? form.link : undefined}
          initialDestinations={destinations.join(', ')}
          onClose={() => setForm(null)}
          onSaved={() => setForm(null)}
        />
      )}
      {unknownCode && (
        <UnknownAirportDialog
          code={unknownCode}
          onClose={() => setUnknownCode(null)}
          onAdded={(added) => {
            setUnknownCode(null);
            addDestination(added);
            setCode('');
          }}
        />
      )}
    </>
  );
}

function CrewLinkCard({ link, onOpen }: { link: CrewLink; onOpen: () => void }) {
  return (
    <article className={link.isActive ? 'crew-link-card' : 'crew-link-card inactive'} aria-label={link.title}>
      <button type="button" className="crew-link-open" onClick={onOpen}>
        <span className="crew-link-heading">
          <CategoryIcon category={link.category} />
          <span className="crew-link-title">{link.title}</span>
        </span>
        <span className="crew-link-meta">
          {categoryLabel(link.category)} · {link.destinations}
          {!link.isActive && ' · Inactive'}
        </span>
        <span className="crew-link-description">{link.description}</span>
        {link.discountDetails && <span className="crew-link-discount">{link.discountDetails}</span>}
      </button>
      <div className="crew-link-card-actions">
        <LikeButton link={link} />
      </div>
    </article>
  );
}
