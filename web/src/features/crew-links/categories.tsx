import {
  AppstoreOutlined,
  CalendarOutlined,
  CameraOutlined,
  CarOutlined,
  CoffeeOutlined,
  CompassOutlined,
  HomeOutlined,
  InboxOutlined,
  MedicineBoxOutlined,
  MoonOutlined,
  PercentageOutlined,
  RocketOutlined,
  ShopOutlined,
  ShoppingOutlined,
  SunOutlined,
  TruckOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { CREW_LINK_CATEGORIES, CREW_LINK_CATEGORY_LABELS } from '@crewswap/proto/browser';

type IconCategory = keyof typeof CREW_LINK_CATEGORY_LABELS;

/** One icon per category; lost_property has an icon though it cannot be chosen (spec section 3). */
const ICONS: Record<IconCategory, ReactNode> = {
  attraction: <CameraOutlined />,
  bar: <CoffeeOutlined />,
  beach_club: <SunOutlined />,
  car_hire: <CarOutlined />,
  discount_sites: <PercentageOutlined />,
  events: <CalendarOutlined />,
  hiking: <CompassOutlined />,
  hotel: <HomeOutlined />,
  medical: <MedicineBoxOutlined />,
  misc: <AppstoreOutlined />,
  nightclub: <MoonOutlined />,
  restaurant: <ShopOutlined />,
  shopping: <ShoppingOutlined />,
  vacsc_vans: <TruckOutlined />,
  virgin: <RocketOutlined />,
  lost_property: <InboxOutlined />,
};

export function categoryLabel(category: string): string {
  return CREW_LINK_CATEGORY_LABELS[category as IconCategory] ?? category;
}

export function CategoryIcon({ category }: { category: string }) {
  return (
    <span className={`category-icon category-${category}`} role="img" aria-label={categoryLabel(category)}>
      {ICONS[category as IconCategory] ?? ICONS.misc}
    </span>
  );
}

export const CATEGORY_OPTIONS = CREW_LINK_CATEGORIES.map((category) => ({
  value: category,
  label: (
    <span className="category-option">
      <CategoryIcon category={category} /> {CREW_LINK_CATEGORY_LABELS[category]}
    </span>
  ),
  // What the Select's search matches.
  title: CREW_LINK_CATEGORY_LABELS[category],
}));
