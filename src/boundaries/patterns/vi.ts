import { EMPTY_PATTERN_PACK, mergePatternPacks, type PatternPack } from '../pattern-pack.js';
import { englishPatterns } from './en.js';

/**
 * The Vietnamese pattern pack (seed 003's "Pattern Detection": `user_leaving`, `decision_made`,
 * `milestone`), in both the unaccented spelling people type quickly and the accented one. Tool
 * output (test runners, stack traces) is language-neutral, so those groups are taken from
 * {@link englishPatterns}. Merge both packs for bilingual sessions:
 * `mergePatternPacks(englishPatterns, vietnamesePatterns)`.
 */
export const vietnamesePatterns: PatternPack = mergePatternPacks(EMPTY_PATTERN_PACK, {
  testPass: englishPatterns.testPass,
  testFail: englishPatterns.testFail,
  traceContinuation: englishPatterns.traceContinuation,
}, {
  // Accented spellings only: the unaccented ones ("la", "co", "va") are English topic words too.
  stopword: [
    'của', 'và', 'là', 'các', 'những', 'cho', 'với', 'trong', 'này', 'đó', 'thì', 'được', 'có',
    'không', 'một', 'chúng', 'tôi', 'mình', 'đã', 'sẽ', 'đang', 'phải', 'nên', 'hãy', 'luôn',
    'bây', 'giờ', 'thay', 'vì', 'dùng', 'sử', 'dụng',
  ],
  qualifier: ['cho', 'của', 'trong'],
  determiner: ['các', 'mỗi', 'mọi'],

  leaving: [
    'toi di',
    'tôi đi',
    'tam nghi',
    'tạm nghỉ',
    'bye',
    'het gio',
    'hết giờ',
    'nghi thoi',
    'nghỉ thôi',
    'hen gap lai',
    'hẹn gặp lại',
  ],
  decision: [
    'chon',
    'chọn',
    'dung cai nay',
    'dùng cái này',
    'ok lam vay',
    'ok làm vậy',
    'dong y',
    'đồng ý',
    'quyet dinh',
    'quyết định',
  ],
  completion: [
    'xong',
    'done',
    'hoan thanh',
    'hoàn thành',
    'pass test',
    'xong roi',
    'xong rồi',
  ],
  testPass: ['pass test'],
  conditional: ['neu', 'nếu', 'truoc khi', 'trước khi', 'khi nao', 'khi nào', 'se', 'sẽ'],
  topicChange: ['tiep theo', 'tiếp theo', 'chuyen sang', 'chuyển sang', 'viec khac', 'việc khác'],
  acknowledgement: ['cam on', 'cảm ơn', 'duoc', 'được', 'ok'],
  greeting: ['chao', 'chào', 'xin chao', 'xin chào'],
  constraint: ['khong duoc', 'không được', 'dung bao gio', 'đừng bao giờ'],
  requirement: ['phai', 'phải', 'bat buoc', 'bắt buộc'],
  convention: ['luon luon', 'luôn luôn', 'luon', 'luôn'],
  preference: ['toi thich', 'tôi thích', 'uu tien', 'ưu tiên'],
  update: ['doi thanh', 'đổi thành', 'thay vi', 'thay vì', 'tu gio', 'từ giờ'],
});
