/**
 * Parameters and filters shared by the two follow logs (friendshipHistory/followed and /following): the event
 * `date`, and the `tag_ids` / `category_ids` lists matched against the other side of each event.
 */
import type { Parameter } from '../openapi/schema.ts'
import { accountParameters } from './account.ts'
import { idListParameter, readIdList } from './lists.ts'
import { pageParameters } from './page.ts'
import { eventDayParameter, readEventDay } from './windows.ts'

/** The event day to keep (null: every day) and the tag and category lists (null: absent, empty or ignored). */
export function readFriendshipFilters(query: URLSearchParams) {
  return { day: readEventDay(query), tagIds: readIdList(query, 'tag_ids'), categoryIds: readIdList(query, 'category_ids') }
}

/** `side` names whose labels the lists match: the follower (followed log) or the followed account (following log). */
export function friendshipParameters(side: string): Parameter[] {
  return [
    ...accountParameters('precedence'),
    eventDayParameter,
    idListParameter('tag_ids', `Keeps events whose ${side} carries at least one of these tags.`),
    idListParameter('category_ids', `Keeps events whose ${side} carries at least one of these categories.`),
    ...pageParameters('friendshipHistory'),
  ]
}
