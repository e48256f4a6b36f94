//! RFC 3339 dates, times and durations (`date-time`, `date`, `time`, `duration`).
//!
//! Takes the instance string, gives whether it matches the RFC 3339 grammar (section 5.6
//! and Appendix A), with ranges checked: days per month and leap years, hours 00–23,
//! minutes 00–59, seconds 00–60 where 60 (a leap second) is accepted only when the time,
//! shifted to UTC by its offset, is 23:59. Only ASCII digits count as digits.

/// Reads exactly `n` ASCII digits at `*pos` as a number, advancing `*pos`.
fn digits(b: &[u8], pos: &mut usize, n: usize) -> Option<u32> {
    let end = pos.checked_add(n)?;
    let slice = b.get(*pos..end)?;
    let mut value = 0u32;
    for &d in slice {
        if !d.is_ascii_digit() {
            return None;
        }
        value = value * 10 + u32::from(d - b'0');
    }
    *pos = end;
    Some(value)
}

/// Consumes the byte `want` at `*pos` (ASCII case-insensitively when it is a letter).
fn expect(b: &[u8], pos: &mut usize, want: u8) -> Option<()> {
    let got = *b.get(*pos)?;
    if got.eq_ignore_ascii_case(&want) {
        *pos += 1;
        Some(())
    } else {
        None
    }
}

fn is_leap_year(year: u32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// `full-date = date-fullyear "-" date-month "-" date-mday`
fn full_date(b: &[u8], pos: &mut usize) -> Option<()> {
    let year = digits(b, pos, 4)?;
    expect(b, pos, b'-')?;
    let month = digits(b, pos, 2)?;
    expect(b, pos, b'-')?;
    let day = digits(b, pos, 2)?;
    if (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month) {
        Some(())
    } else {
        None
    }
}

/// `full-time = partial-time time-offset`, with the leap-second rule applied.
fn full_time(b: &[u8], pos: &mut usize) -> Option<()> {
    let hour = digits(b, pos, 2)?;
    expect(b, pos, b':')?;
    let minute = digits(b, pos, 2)?;
    expect(b, pos, b':')?;
    let second = digits(b, pos, 2)?;
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    if b.get(*pos) == Some(&b'.') {
        *pos += 1;
        let start = *pos;
        while b.get(*pos).is_some_and(u8::is_ascii_digit) {
            *pos += 1;
        }
        if *pos == start {
            return None;
        }
    }
    // time-offset = "Z" / time-numoffset; offset in minutes east of UTC.
    let offset: i32 = match *b.get(*pos)? {
        b'Z' | b'z' => {
            *pos += 1;
            0
        }
        sign @ (b'+' | b'-') => {
            *pos += 1;
            let oh = digits(b, pos, 2)?;
            expect(b, pos, b':')?;
            let om = digits(b, pos, 2)?;
            if oh > 23 || om > 59 {
                return None;
            }
            let minutes = (oh * 60 + om) as i32;
            if sign == b'-' {
                -minutes
            } else {
                minutes
            }
        }
        _ => return None,
    };
    if second == 60 {
        let local = (hour * 60 + minute) as i32;
        let utc = (local - offset).rem_euclid(24 * 60);
        if utc != 23 * 60 + 59 {
            return None;
        }
    }
    Some(())
}

/// Runs `parse` over all of `s` and demands it consumes everything.
fn whole(s: &str, parse: impl Fn(&[u8], &mut usize) -> Option<()>) -> bool {
    let b = s.as_bytes();
    let mut pos = 0;
    parse(b, &mut pos).is_some() && pos == b.len()
}

/// `date-time` (RFC 3339 `date-time`): e.g. `1963-06-19T08:30:06.283185Z`.
///
/// `T` and `Z` may be lower case; an offset is required; a second of 60 is valid only
/// at 23:59 UTC.
pub fn date_time(s: &str) -> bool {
    whole(s, |b, pos| {
        full_date(b, pos)?;
        expect(b, pos, b'T')?;
        full_time(b, pos)
    })
}

/// `date` (RFC 3339 `full-date`): e.g. `1963-06-19`, with the day checked against the
/// month and leap years.
pub fn date(s: &str) -> bool {
    whole(s, full_date)
}

/// `time` (RFC 3339 `full-time`): e.g. `08:30:06Z` or `23:59:60+00:00`; the offset is
/// required.
pub fn time(s: &str) -> bool {
    whole(s, full_time)
}

/// Reads `1*DIGIT` followed by one of `units`, returning the unit's index in `units`.
fn duration_element(b: &[u8], pos: &mut usize, units: &[u8]) -> Option<usize> {
    let start = *pos;
    while b.get(*pos).is_some_and(u8::is_ascii_digit) {
        *pos += 1;
    }
    if *pos == start {
        return None;
    }
    let unit = *b.get(*pos)?;
    let index = units.iter().position(|&u| u == unit)?;
    *pos += 1;
    Some(index)
}

/// Reads a run of elements whose units follow one another in `units` without gaps
/// (`Y`, `YM`, `YMD`, `M`, `MD`, `D`; likewise `H`, `M`, `S`). Stops before `T` or the end.
fn duration_run(b: &[u8], pos: &mut usize, units: &[u8]) -> Option<()> {
    let mut previous: Option<usize> = None;
    while *pos < b.len() && b[*pos] != b'T' {
        let index = duration_element(b, pos, units)?;
        if let Some(p) = previous {
            if index != p + 1 {
                return None;
            }
        }
        previous = Some(index);
    }
    previous.map(|_| ())
}

/// `duration` (RFC 3339 Appendix A `duration`): e.g. `P4DT12H30M5S`, `PT36H` or `P2W`.
///
/// Components are whole numbers in the order the grammar fixes (no gaps: `P1Y2D` is
/// invalid); weeks stand alone; no sign, fraction or comma.
pub fn duration(s: &str) -> bool {
    whole(s, |b, pos| {
        if b.first() != Some(&b'P') {
            return None;
        }
        *pos = 1;
        if b.last() == Some(&b'W') {
            // dur-week = 1*DIGIT "W"
            let index = duration_element(b, pos, b"W")?;
            return (index == 0).then_some(());
        }
        let has_date = b.get(*pos).is_some_and(|&c| c != b'T');
        if has_date {
            duration_run(b, pos, b"YMD")?;
        }
        if b.get(*pos) == Some(&b'T') {
            *pos += 1;
            duration_run(b, pos, b"HMS")?;
        } else if !has_date {
            return None;
        }
        Some(())
    })
}
