// The shape of a place as every place query reads it (the list, one place, a member's lists):
// the columns selected, the row they make, and the review aggregate as the API shows it.
import { sql } from 'drizzle-orm';
import { places, type PlaceStatus, type PlaceType, type VeganLevel } from '../../../db/schema/places.js';
import type { PlaceOutput } from './schemas.js';

/** A place as the API returns it, before its photo URLs and images are added (service.ts withPhotoUrls). */
export type PlaceFields = Omit<PlaceOutput, 'photoUrls' | 'photoImages'>;

/** Every column a response needs; the location comes out as numbers, never as raw geometry. */
export const placeColumns = {
  id: places.id,
  slug: places.slug,
  name: places.name,
  type: places.type,
  veganLevel: places.veganLevel,
  address: places.address,
  hours: places.hours,
  website: places.website,
  tags: places.tags,
  photos: places.photos,
  lng: sql<number>`ST_X(${places.location})`.mapWith(Number),
  lat: sql<number>`ST_Y(${places.location})`.mapWith(Number),
  status: places.status,
  createdAt: places.createdAt,
  // The review aggregate kept on the row (server/domains/place-social/reviews.ts): no join, no count.
  reviewCount: places.reviewCount,
  ratingSum: places.ratingSum,
};

/** One place row as every place query returns it (service.ts turns it into the wire shape). */
export interface PlaceRow {
  id: string;
  slug: string;
  name: string;
  type: PlaceType;
  veganLevel: VeganLevel;
  address: string;
  hours: string | null;
  website: string;
  tags: string[];
  photos: string[];
  lng: number;
  lat: number;
  status: PlaceStatus;
  createdAt: Date;
  reviewCount: number;
  ratingSum: number;
  /** Read only where a rejected place can be shown (one place, a decision); see service.ts. */
  rejectionReason?: string | null;
}

/** The place's review aggregate as the API shows it: the mean rounded to 2 decimals, null with no reviews. */
export function ratingFields(reviewCount: number, ratingSum: number) {
  return {
    averageRating: reviewCount > 0 ? Math.round((ratingSum / reviewCount) * 100) / 100 : null,
    reviewCount,
  };
}
